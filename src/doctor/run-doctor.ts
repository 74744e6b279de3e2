/**
 * `render-farm doctor`: every check a render needs, in dependency order (ports before the
 * database check starts an embedded PostgreSQL; WebGL only with a Chromium). A library
 * function: the CLI prints the report, tests read it.
 */
import type { Config } from '../config.js';
import { VERSION } from '../version.js';
import { runCheck, type CheckResult } from './check.js';
import { checkDataDir } from './data-dir-check.js';
import { checkDatabase } from './database-check.js';
import { checkPorts } from './ports-check.js';
import { checkStorage } from './storage-check.js';
import { checkChromium, checkFfmpeg, checkFfprobe } from './tools-check.js';

export interface DoctorReport {
  ok: boolean;
  version: string;
  checks: CheckResult[];
}

export const CHECK_IDS = ['chromium', 'webgl', 'webcodecs', 'ffmpeg', 'ffprobe', 'data-dir', 'ports', 'postgres', 'artifacts'] as const;

export async function runDoctor(cfg: Config, onCheck: (c: CheckResult) => void = () => {}): Promise<DoctorReport> {
  const checks: CheckResult[] = [];
  const add = (c: CheckResult) => {
    checks.push(c);
    onCheck(c);
    return c;
  };
  let chromium: Awaited<ReturnType<typeof checkChromium>>['location'];
  add(
    await runCheck('chromium', async () => {
      const { location, ...rest } = await checkChromium(cfg);
      chromium = location;
      return rest;
    }),
  );
  if (chromium) {
    const t0 = performance.now();
    try {
      const { checkWebGl } = await import('./webgl-check.js');
      const gpu = await checkWebGl(cfg, chromium.path, chromium.source === 'package');
      const ms = Math.round(performance.now() - t0);
      add({ id: 'webgl', ...gpu.webgl, ms });
      add({ id: 'webcodecs', ...gpu.webcodecs, ms: 0 });
    } catch (err) {
      const message = (err as Error).message;
      const i = message.indexOf('): ');
      add({
        id: 'webgl',
        status: 'fail',
        detail: i >= 0 ? message.slice(0, i + 1) : message.split('\n')[0]!,
        fix: i >= 0 ? message.slice(i + 3) : 'run with LOG_LEVEL=debug; install Mesa (apt-get install -y libgl1-mesa-dri libegl1)',
        ms: Math.round(performance.now() - t0),
      });
      add({ id: 'webcodecs', status: 'skip', detail: 'needs a working Chromium', ms: 0 });
    }
  } else {
    add({ id: 'webgl', status: 'skip', detail: 'needs Chromium', ms: 0 });
    add({ id: 'webcodecs', status: 'skip', detail: 'needs Chromium', ms: 0 });
  }
  add(await runCheck('ffmpeg', () => checkFfmpeg(cfg)));
  add(await runCheck('ffprobe', () => checkFfprobe(cfg)));
  add(await runCheck('data-dir', () => checkDataDir(cfg)));
  add(await runCheck('ports', () => checkPorts(cfg)));
  add(await runCheck('postgres', () => checkDatabase(cfg), 180_000));
  add(await runCheck('artifacts', () => checkStorage(cfg)));
  return { ok: checks.every((c) => c.status !== 'fail'), version: VERSION, checks };
}
