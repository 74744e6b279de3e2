/**
 * `render-farm jobs list --search` as a child process on a real database: the start of a job id
 * (as lists shorten ids, with or without its dashes) finds that job; a share code, in any case,
 * finds the jobs of that saved build; other text finds nothing and says so; bad text is a usage
 * error (exit 2).
 */
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureCustomer } from '../../src/auth/customers.js';
import { DEMO_BUILDS } from '../../src/catalog/demo-catalog.js';
import { submitRender } from '../../src/jobs/submit.js';
import { cliOn } from '../helpers/cli.js';
import { useQueueDb } from '../helpers/queue-db.js';

describe('jobs list --search', () => {
  const t = useQueueDb();
  const cli = cliOn(t);
  const glass = DEMO_BUILDS.find((b) => b.shareCode === 'DEMO-GLASS')!;
  const other = DEMO_BUILDS.find((b) => b.shareCode !== 'DEMO-GLASS')!;
  let glassJobs: string[];
  let otherJob: string;
  let partsJob: string;

  beforeAll(async () => {
    const customerId = (await ensureCustomer(t.db.db, 'search-co')).id;
    const submit = async (parts: typeof glass.parts, shareCode: string | undefined, width: number) =>
      (
        await submitRender(t.db, {
          customerId,
          parts,
          state: null,
          shareCode,
          options: { format: 'sprite', width, height: 256, profile: 'fast' },
        })
      ).jobId;
    glassJobs = [await submit(glass.parts, 'DEMO-GLASS', 256), await submit(glass.parts, 'DEMO-GLASS', 264)];
    otherJob = await submit(other.parts, other.shareCode, 256);
    partsJob = await submit(glass.parts, undefined, 272);
  }, 60_000);

  const listed = async (...args: string[]) => {
    const r = await cli('jobs', 'list', '--json', '--limit', '100', ...args);
    expect(r.code, r.stderr).toBe(0);
    return (JSON.parse(r.stdout) as { jobId: string }[]).map((j) => j.jobId).sort();
  };

  it('finds a job by the start of its id, with or without dashes, in any case', async () => {
    const id = partsJob;
    expect(await listed('--search', id.slice(0, 8))).toEqual([id]);
    expect(await listed('--search', id.slice(0, 13).toUpperCase())).toEqual([id]);
    expect(await listed('--search', id.replace(/-/g, '').slice(0, 14))).toEqual([id]);
    expect(await listed('--search', id)).toEqual([id]);
    // the table, as an operator reads it
    const table = await cli('jobs', 'list', '--search', id.slice(0, 8));
    expect(table.code, table.stderr).toBe(0);
    expect(table.stdout.split('\n').filter((l) => /^[0-9a-f]{8}-/.test(l))).toEqual([
      expect.stringMatching(new RegExp(`^${id}\\s+queued`)),
    ]);
  });

  it("finds a saved build's jobs by its share code, in any case", async () => {
    expect(await listed('--search', 'DEMO-GLASS')).toEqual([...glassJobs].sort());
    expect(await listed('--search', 'demo-glass')).toEqual([...glassJobs].sort());
    expect(await listed('--search', other.shareCode)).toEqual([otherJob]);
  });

  it('says when nothing matches, and refuses text that cannot match (exit 2)', async () => {
    const none = await cli('jobs', 'list', '--search', 'NO-SUCH-BUILD');
    expect(none.code, none.stderr).toBe(0);
    expect(none.stdout).toBe('no jobs match "NO-SUCH-BUILD"\n');
    for (const bad of ['', 'x'.repeat(65)]) {
      const r = await cli('jobs', 'list', '--search', bad);
      expect(r.code, r.stdout).toBe(2);
      expect(r.stderr).toContain('--search');
    }
  });
});
