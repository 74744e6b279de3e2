/** Console and help: human log lines, thumbnail summaries, global options in sub-command help, table headers. */
import { execFile } from 'node:child_process';
import path from 'node:path';
import { promisify } from 'node:util';
import pino from 'pino';
import { beforeAll, describe, expect, it } from 'vitest';
import { ensureCustomer } from '../../src/auth/customers.js';
import { DEMO_BUILDS } from '../../src/catalog/demo-catalog.js';
import { seedDemoCatalog } from '../../src/catalog/seed-demo.js';
import { installQueue } from '../../src/jobs/queue/runner.js';
import { submitRender } from '../../src/jobs/submit.js';
import { ThumbnailSummary } from '../../src/jobs/thumbnail-summary.js';
import { formatRecord } from '../../src/log-pretty.js';
import { useTestDb } from '../helpers/db.js';

const run = promisify(execFile);
const BIN = path.resolve('bin/render-farm');

describe('console and help', () => {
  const t = useTestDb();
  let env: Record<string, string | undefined>;
  beforeAll(async () => {
    env = { PATH: process.env.PATH, HOME: process.env.HOME, DATABASE_URL: t.url, RENDER_FARM_DATA_DIR: t.cfg.dataDir };
  });

  it('formats pino records as one human line (fields as key=value, quoted when needed)', () => {
    const line = formatRecord(
      JSON.stringify({
        level: 30,
        time: Date.UTC(2025, 0, 1, 12, 0, 1, 234),
        pid: 1,
        hostname: 'h',
        name: 'render-farm',
        renderId: 'r1',
        ms: 4100,
        note: 'two words',
        msg: 'render completed',
      }),
      false,
    );
    expect(line).toBe('12:00:01.234 INFO  render completed  renderId=r1 ms=4100 note="two words"\n');
    const err = formatRecord(
      JSON.stringify({
        level: 50,
        time: 0,
        msg: 'render failed',
        err: { message: 'boom', stack: 'Error: boom\n    at f (x.ts:1:1)' },
      }),
      false,
    );
    expect(err).toBe('00:00:00.000 ERROR render failed  err=boom\n    at f (x.ts:1:1)\n');
    expect(formatRecord('not json', false)).toBe('not json\n');
  });

  it('summarises thumbnails in one line per period instead of one per part', async () => {
    await installQueue(t.db.pool);
    const lines: Record<string, unknown>[] = [];
    const log = pino({ level: 'info' }, { write: (s: string) => void lines.push(JSON.parse(s)) });
    const summary = new ThumbnailSummary(t.db, log, 60_000);
    for (const ms of [100, 200, 300]) summary.add(ms);
    expect(lines).toHaveLength(0);
    await summary.flush();
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({ rendered: 3, avgMs: 200, queued: 0 });
    expect(lines[0]!.msg).toMatch(/^thumbnails: 3 rendered in \d+ s, 0 queued$/);
    await summary.flush();
    expect(lines).toHaveLength(1);
  });

  it('sub-command --help lists the global options; token --help states the default scopes', async () => {
    for (const cmd of [['token'], ['jobs', 'list'], ['serve'], ['doctor'], ['top']]) {
      const { stdout } = await run('node', [BIN, ...cmd, '--help'], { env });
      expect(stdout, cmd.join(' ')).toMatch(
        /Global Options:[\s\S]*--data-dir[\s\S]*--database-url[\s\S]*--pg-port[\s\S]*--log-level/,
      );
    }
    const { stdout } = await run('node', [BIN, 'token', '--help'], { env });
    expect(stdout.replace(/\s+/g, ' ')).toContain(
      '(default render:submit,render:status; add data:read for parts and builds)',
    );
  });

  it('jobs list has column headers', async () => {
    await seedDemoCatalog(t.db);
    const customer = await ensureCustomer(t.db.db, 'acme');
    const glass = DEMO_BUILDS.find((b) => b.shareCode === 'DEMO-GLASS')!;
    const s = await submitRender(t.db, {
      customerId: customer.id,
      parts: glass.parts,
      state: null,
      options: { format: 'sprite', width: 256, height: 256, profile: 'fast' },
    });
    const { stdout } = await run('node', [BIN, 'jobs', 'list'], { env });
    const [header, row] = stdout.split('\n');
    expect(header).toMatch(/^JOB\s+STATUS\s+FORMAT\s+CUSTOMER\s+CREATED\s+WORKER\s+ERROR$/);
    expect(row).toMatch(new RegExp(`^${s.jobId}\\s+queued\\s+sprite\\s+acme\\s+\\d{4}-`));
  });
});
