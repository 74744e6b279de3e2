/**
 * Cache hits and reuses are the bulk of submissions under load: logged at debug (an info line
 * each filled 36 MB in 3 minutes), counted in /metrics by outcome.
 */
import { describe, expect, it } from 'vitest';
import { DEMO_BUILDS } from '../../src/catalog/demo-catalog.js';
import { useTestApi } from '../helpers/api.js';
import { captureLogger } from '../helpers/log-capture.js';

describe('submission logging', () => {
  const captured = captureLogger('debug');
  const api = useTestApi({}, { log: captured.log });

  const submittedLines = (outcome: string) => captured.find(/^render submitted$/).filter((l) => l.outcome === outcome);
  const metric = async (outcome: string) => {
    const text = (await api.call('GET', '/metrics')).text;
    const m = new RegExp(`^render_farm_submissions_total\\{outcome="${outcome}",format="sprite"\\} (\\d+)$`, 'm').exec(
      text,
    );
    return m ? Number(m[1]) : 0;
  };

  it('logs new renders at info, reuses and cache hits at debug, and counts hits in /metrics', async () => {
    const body = { parts: DEMO_BUILDS[1].parts, format: 'sprite', cameraZoom: 1.91 };
    const first = await api.call('POST', '/render-build', { token: api.key, body });
    expect(first.status).toBe(202);
    expect((await api.call('POST', '/render-build', { token: api.key, body })).json.reused).toBe(true);

    await api.t.db.db
      .updateTable('renders')
      .set({
        status: 'completed',
        artifacts: JSON.stringify({ sprite: 'renders/aa/test/sprite.webp', screenshot: 'renders/aa/test/hero.webp' }),
        finished_at: new Date(),
      })
      .where(
        'id',
        '=',
        (
          await api.t.db.db
            .selectFrom('jobs')
            .select('render_id')
            .where('id', '=', first.json.job_id)
            .executeTakeFirstOrThrow()
        ).render_id,
      )
      .execute();
    const before = await metric('cached');
    for (let i = 0; i < 3; i++)
      expect((await api.call('POST', '/render-build', { token: api.key, body })).json.cached).toBe(true);
    expect(await metric('cached')).toBe(before + 3);

    expect(submittedLines('new').map((l) => l.level)).toEqual([30]);
    expect(submittedLines('reused').map((l) => l.level)).toEqual([20]);
    expect(submittedLines('cached').map((l) => l.level)).toEqual([20, 20, 20]);
  });
});
