/** A JSON endpoint that receives no readable body says so in words (docs/api.md, "Bodies"). */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { isErrorBody, startTestApi, type TestApi } from '../helpers/api.js';

describe('POST without a JSON body', () => {
  let api: TestApi;
  beforeAll(async () => {
    api = await startTestApi();
  });
  afterAll(async () => {
    await api?.close();
  });

  it('is a 400 that says to send a JSON object, not "expected object, received undefined"', async () => {
    for (const path of ['/render-build', '/render-by-share-code', '/parts']) {
      // no Content-Type and no body: nothing for the JSON parser to read
      const r = await api.call('POST', path, { token: api.key });
      expect(r.status, path).toBeGreaterThanOrEqual(400);
      expect(r.status, path).toBeLessThan(500);
      expect(isErrorBody(r.json), path).toBe(true);
      expect(r.json.message, path).not.toMatch(/received undefined/);
      expect(r.json.message, path).toMatch(/JSON/);
    }
  });
});
