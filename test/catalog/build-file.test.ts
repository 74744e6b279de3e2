/** A `render --build` file is a /render-build body (the API's schema and parts rules) plus an optional saved state; a refusal names the file. */
import { mkdtemp, rm, writeFile } from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { BuildFileError, readBuildFile } from '../../src/catalog/build-file.js';

describe('readBuildFile', () => {
  let dir: string;
  let n = 0;
  beforeAll(async () => {
    dir = await mkdtemp(path.join(os.tmpdir(), 'build-file-'));
  });
  afterAll(async () => {
    await rm(dir, { recursive: true, force: true });
  });
  const file = async (content: unknown) => {
    const f = path.join(dir, `build-${n++}.json`);
    await writeFile(f, typeof content === 'string' ? content : JSON.stringify(content));
    return f;
  };
  const refusal = async (f: string) => {
    const err = await readBuildFile(f).then(
      () => null,
      (e: unknown) => e,
    );
    expect(err).toBeInstanceOf(BuildFileError);
    expect((err as BuildFileError).exitCode).toBe(2);
    expect((err as Error).message).toContain(`build file ${f}: `);
    return (err as Error).message;
  };

  it('reads the older {parts, state} form as before: no options', async () => {
    const state = { fans: [{ slot: 'front-1' }], rgb: { color: '#ff0000', mode: 'static' } };
    const got = await readBuildFile(await file({ parts: { GPU: ['a'], RAM: ['b', 'c'] }, state }));
    expect(got).toEqual({ parts: { GPU: ['a'], RAM: ['b', 'c'] }, state, options: {} });
    expect((await readBuildFile(await file({ parts: { GPU: ['a'] }, state: null }))).state).toBeNull();
  });

  it('reads a POST /render-build body: its render options come back, checked and clamped by the API schema', async () => {
    const got = await readBuildFile(
      await file({
        parts: { GPU: ['a'] },
        format: 'sprite',
        width: 256,
        height: 256,
        cameraZoom: 1000,
        gridSettings: { color: '#fff' },
      }),
    );
    expect(got.parts).toEqual({ GPU: ['a'] });
    expect(got.options).toMatchObject({
      format: 'sprite',
      width: 256,
      height: 256,
      gridSettings: { color: '#ffffff' },
    });
    expect(got.options.cameraZoom).toBeLessThan(1000);
  });

  it('refuses what the API refuses, naming the file and the field', async () => {
    expect(await refusal(await file({ parts: { GPU: ['a'] }, width: 100, height: 300 }))).toMatch(/width: .*256/);
    expect(await refusal(await file({ parts: { GPU: ['a'] }, width: 512 }))).toMatch(
      /height: width and height must be sent together/,
    );
    expect(await refusal(await file({ parts: { GPU: ['a'] }, colour: 'red' }))).toMatch(/colour/);
    expect(await refusal(await file({ parts: { GPU: ['a', 'b', 'c'] } }))).toMatch(
      /a build holds at most 2 GPU parts, got 3/,
    );
    expect(await refusal(await file({ parts: { Toaster: ['a'] } }))).toMatch(/unknown category Toaster/);
    expect(await refusal(await file({ parts: { GPU: [] } }))).toMatch(/parts\.GPU: .*>=1/);
    expect(await refusal(await file({ parts: { GPU: ['a'] }, state: { fans: 'all' } }))).toMatch(/state\.fans: /);
  });

  it('names the file when it is not JSON, not an object, or not there', async () => {
    expect(await refusal(await file('{"parts": '))).toMatch(/JSON/);
    expect(await refusal(await file([{ parts: {} }]))).toMatch(/expected a JSON object/);
    expect(await refusal(path.join(dir, 'missing.json'))).toMatch(/ENOENT/);
  });
});
