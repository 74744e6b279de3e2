/**
 * Control-plane benchmark (docs/benchmarks.md): real serve, real PostgreSQL, real worker processes with
 * graphile-worker runners, on the fake stage (no Chromium; RENDER_FARM_FAKE_STAGE_MS), so one
 * small machine hosts 40+ worker processes. See bench/control-plane/run.ts.
 *
 *   npm run bench:control-plane [-- --workers 10,20,40 --concurrency 4 --renders 2000 --rate 25
 *                                   --seed-rows 1000000 --frame-ms 5 --compare-pool 10 --json]
 *
 * --compare-pool N runs the last worker count again with N connections per worker pool (the
 * pool every process had before the connection budget: 10), for the before/after.
 *
 * --renders defaults to 2000 a run (a quick run); the figure is --renders 20000.
 */
import { formatReport } from './control-plane/report.js';
import { runControlPlaneBench } from './control-plane/run.js';

const argv = process.argv.slice(2);
const flag = (name: string, dflt: string) => {
  const i = argv.indexOf(`--${name}`);
  return i >= 0 && argv[i + 1] ? argv[i + 1]! : dflt;
};
const json = argv.includes('--json');
const report = await runControlPlaneBench({
  workers: flag('workers', '10,20,40').split(',').map(Number),
  concurrency: Number(flag('concurrency', '4')),
  renders: Number(flag('renders', '2000')),
  rate: Number(flag('rate', '25')),
  customers: Number(flag('customers', '50')),
  frameMs: Number(flag('frame-ms', '5')),
  repeatShare: Number(flag('repeat-share', '0.1')),
  pollMs: Number(flag('poll-ms', '1000')),
  seedRows: Number(flag('seed-rows', '0')),
  maxConnections: Number(flag('max-connections', '400')),
  comparePool: Number(flag('compare-pool', '0')),
  databaseUrl: argv.includes('--database-url') ? flag('database-url', '') : undefined,
  log: (line) => process.stderr.write(`${line}\n`),
});
process.stdout.write(json ? `${JSON.stringify(report, null, 2)}\n` : `${formatReport(report)}\n`);
process.exit(0);
