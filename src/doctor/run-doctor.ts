/**
 * `render-farm doctor`: the Node it runs on, then every check a render needs, in dependency
 * order (ports before the database check starts an embedded PostgreSQL; WebGL only with a Chromium; the embedded
 * PostgreSQL and a filesystem store in the data dir only with a usable data dir). Each check
 * has a time limit, so a hung component is a FAIL row with its fix, never a silent wait.
 * A library function: the CLI prints the report, tests read it.
 */
import path from 'node:path';
import type { Config } from '../config.js';
import { storageLocation } from '../storage/storage-location.js';
import { VERSION } from '../version.js';
import { runCheck, type CheckLimit, type CheckOutcome, type CheckResult } from './check.js';
import { checkDataDir } from './data-dir-check.js';
import { checkDatabase } from './database-check.js';
import { checkNodeRuntime, NODE_FIX } from './node-check.js';
import { checkPorts } from './ports-check.js';
import { checkStorage } from './storage-check.js';
import { checkChromium, checkFfmpeg, checkFfprobe } from './tools-check.js';

export interface DoctorReport {
  ok: boolean;
  version: string;
  checks: CheckResult[];
}

export const CHECK_IDS = [
  'node',
  'chromium',
  'webgl',
  'gpu',
  'webcodecs',
  'ffmpeg',
  'ffprobe',
  'data-dir',
  'ports',
  'postgres',
  'artifacts',
] as const;

const DEBUG = 'run with LOG_LEVEL=debug to see why';

/**
 * Each check's time limit and the fix its row shows when it runs out (or throws). The limits
 * fit the work: a directory or a port answers at once; the WebGL probe launches Chromium and
 * renders 16 frames, which takes minutes on a loaded CPU-only machine; a first embedded
 * PostgreSQL start runs initdb.
 */
export const CHECK_LIMITS = {
  node: { timeoutMs: 1_000, fix: NODE_FIX },
  chromium: {
    timeoutMs: 30_000,
    fix: `check that CHROMIUM_PATH (or the chromium on PATH) starts: run it with --version; ${DEBUG}`,
  },
  // SwiftShader on a loaded 2-core machine: 3 s a probe frame, over 2 min with the launch and the scene build
  webgl: {
    timeoutMs: 180_000,
    fix: `Chromium did not render the probe in time: check the machine's load, install Mesa (apt-get install -y libgl1-mesa-dri libegl1) or set CHROMIUM_PATH; ${DEBUG}`,
  },
  ffmpeg: { timeoutMs: 30_000, fix: 'check that FFMPEG_PATH (or the ffmpeg on PATH) runs: try "ffmpeg -version"' },
  ffprobe: { timeoutMs: 30_000, fix: 'check that FFPROBE_PATH (or the ffprobe on PATH) runs: try "ffprobe -version"' },
  'data-dir': { timeoutMs: 5_000, fix: 'choose a local, writable directory with --data-dir or RENDER_FARM_DATA_DIR' },
  ports: { timeoutMs: 10_000, fix: 'pass --port or set PORT, and --pg-port or RENDER_FARM_PG_PORT' },
  postgres: {
    timeoutMs: 90_000,
    fix: `check DATABASE_URL names a running PostgreSQL that answers (or unset it for the embedded one); ${DEBUG}`,
  },
  artifacts: {
    timeoutMs: 20_000,
    fix: 'check STORAGE_URL (and for S3: S3_ENDPOINT, credentials, that the bucket exists); a filesystem store needs a local, writable directory',
  },
} satisfies Record<Exclude<(typeof CHECK_IDS)[number], 'webcodecs' | 'gpu'>, CheckLimit>;

/** A row for a check that was not run because one it needs failed. */
const skipped = (id: string, detail: string): CheckResult => ({ id, status: 'skip', detail, ms: 0 });

/** Whether the artifact store is a directory inside the data dir (the default). */
function storeInDataDir(cfg: Config): boolean {
  try {
    const loc = storageLocation(cfg);
    if (loc.kind !== 'fs') return false;
    const rel = path.relative(cfg.dataDir, loc.root);
    return !rel.startsWith('..') && !path.isAbsolute(rel);
  } catch {
    // a bad STORAGE_URL: the artifacts check reports it
    return false;
  }
}

export async function runDoctor(cfg: Config, onCheck: (c: CheckResult) => void = () => {}): Promise<DoctorReport> {
  const checks: CheckResult[] = [];
  const add = (c: CheckResult) => {
    checks.push(c);
    onCheck(c);
    return c;
  };
  // the runtime under everything else: an ended Node line still works, but gets no security fixes
  add(await runCheck('node', async () => checkNodeRuntime(process.version, new Date()), CHECK_LIMITS.node));
  let chromium: Awaited<ReturnType<typeof checkChromium>>['location'];
  add(
    await runCheck(
      'chromium',
      async () => {
        const { location, ...rest } = await checkChromium(cfg);
        chromium = location;
        return rest;
      },
      CHECK_LIMITS.chromium,
    ),
  );
  if (chromium) {
    const found = chromium;
    let webcodecs: CheckOutcome | undefined;
    let gpu: CheckOutcome | undefined;
    add(
      await runCheck(
        'webgl',
        async () => {
          try {
            const { checkWebGl } = await import('./webgl-check.js');
            const checks = await checkWebGl(cfg, found.path, found.source === 'package');
            webcodecs = checks.webcodecs;
            gpu = checks.gpu;
            return checks.webgl;
          } catch (err) {
            // launch errors read "what (facts): fix"; the facts may hold "(...): " themselves
            const message = (err as Error).message;
            const i = message.lastIndexOf('): ');
            return {
              status: 'fail',
              detail: i >= 0 ? message.slice(0, i + 1) : message.split('\n')[0]!,
              fix:
                i >= 0 ? message.slice(i + 3) : `${DEBUG}; install Mesa (apt-get install -y libgl1-mesa-dri libegl1)`,
            };
          }
        },
        CHECK_LIMITS.webgl,
      ),
    );
    add(gpu ? { id: 'gpu', ...gpu, ms: 0 } : skipped('gpu', 'needs a working Chromium'));
    add(webcodecs ? { id: 'webcodecs', ...webcodecs, ms: 0 } : skipped('webcodecs', 'needs a working Chromium'));
  } else {
    add(skipped('webgl', 'needs Chromium'));
    add(skipped('gpu', 'needs Chromium'));
    add(skipped('webcodecs', 'needs Chromium'));
  }
  add(await runCheck('ffmpeg', () => checkFfmpeg(cfg), CHECK_LIMITS.ffmpeg));
  add(await runCheck('ffprobe', () => checkFfprobe(cfg), CHECK_LIMITS.ffprobe));
  const dataDirOk =
    add(await runCheck('data-dir', () => checkDataDir(cfg), CHECK_LIMITS['data-dir'])).status !== 'fail';
  add(await runCheck('ports', () => checkPorts(cfg), CHECK_LIMITS.ports));
  // the embedded PostgreSQL and the default artifact store live in the data dir: without it they would only fail again, or hang
  if (!cfg.databaseUrl && !dataDirOk)
    add(skipped('postgres', `the embedded PostgreSQL needs the data dir, which failed (${cfg.dataDir})`));
  else
    add(
      await runCheck(
        'postgres',
        () => checkDatabase(cfg),
        cfg.databaseUrl ? { ...CHECK_LIMITS.postgres, timeoutMs: 20_000 } : CHECK_LIMITS.postgres,
      ),
    );
  if (!dataDirOk && storeInDataDir(cfg))
    add(skipped('artifacts', `the filesystem store is in the data dir, which failed (${cfg.dataDir})`));
  else add(await runCheck('artifacts', () => checkStorage(cfg), CHECK_LIMITS.artifacts));
  return { ok: checks.every((c) => c.status !== 'fail'), version: VERSION, checks };
}
