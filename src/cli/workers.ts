/** `render-farm workers list|show|drain`: the worker processes as their heartbeats report them, and draining one. */
import type { Command } from 'commander';
import { UsageError } from './errors.js';
import { configFor, printJson, printList, subcommand, withExistingDb } from './common.js';

const mib = (bytes: number) => `${(bytes / 1024 / 1024).toFixed(0)} MiB`;
const iso = (d: Date | null) => (d ? d.toISOString().replace(/\.\d+Z$/, 'Z') : '-');

/** 3725 -> "1 h 2 min"; 42 -> "42 s" */
function span(s: number): string {
  if (s < 90) return `${s} s`;
  if (s < 90 * 60) return `${Math.round(s / 60)} min`;
  return `${Math.floor(s / 3600)} h ${Math.round((s % 3600) / 60)} min`;
}

export default function register(program: Command): void {
  const workers = program
    .command('workers')
    .description(
      'Worker processes as their heartbeats report them (version, uptime, memory, jobs, last error); drain one.',
    )
    .addHelpText(
      'after',
      `
Examples:
  $ render-farm workers list
  $ render-farm workers show build-07-4242-3fa85f64
  $ render-farm workers drain build-07-4242-3fa85f64`,
    );

  subcommand(workers, 'list', {
    description: 'Workers live now or stopped within the last hour, newest first.',
    json: true,
    examples: ['render-farm workers list', 'render-farm workers list --json'],
  }).action(async (opts: { json?: boolean }, cmd: Command) => {
    const { listWorkers } = await import('../jobs/workers-repository.js');
    const list = await withExistingDb(configFor(cmd), (db) => listWorkers(db));
    printList(
      list,
      opts.json,
      'no workers (start one with "render-farm worker")\n',
      ['WORKER', 'STATE', 'VERSION', 'UPTIME', 'MEMORY', 'DONE', 'FAILED', 'LAST ERROR'],
      (w) => [
        w.id,
        w.state,
        w.version ?? '-',
        span(w.uptimeS),
        w.memory ? mib(w.memory.rss) : '-',
        `${w.jobsDone}`,
        `${w.jobsFailed}`,
        w.lastError ?? '',
      ],
    );
  });

  subcommand(workers, 'show <workerId>', {
    description:
      'One worker: host, versions, state, uptime, memory, jobs done and failed, last error, what it renders now.',
    json: true,
    examples: ['render-farm workers show build-07-4242-3fa85f64 --json'],
  }).action(async (workerId: string, opts: { json?: boolean }, cmd: Command) => {
    const { getWorkerDetail } = await import('../jobs/workers-repository.js');
    const w = await withExistingDb(configFor(cmd), (db) => getWorkerDetail(db, workerId));
    if (!w) throw new UsageError(`no worker ${workerId} (see: render-farm workers list)`);
    if (opts.json) return printJson(w);
    const lines: [string, string][] = [
      ['worker', w.id],
      ['host', `${w.hostname} (pid ${w.pid}, concurrency ${w.concurrency})`],
      ['state', w.state + (w.drainRequestedAt ? ` (drain asked ${iso(w.drainRequestedAt)})` : '')],
      ['version', `${w.version ?? '-'} (renderer ${w.rendererVersion ?? '-'})`],
      ['started', iso(w.startedAt)],
      ['uptime', span(w.uptimeS)],
      ['heartbeat', `${iso(w.lastSeen)} (${span(w.silentS)} ago)`],
      ['memory', w.memory ? `${mib(w.memory.rss)} resident, ${mib(w.memory.heap)} heap` : '-'],
      ['jobs', `${w.jobsDone} done, ${w.jobsFailed} failed`],
      ['last error', w.lastError ? `${w.lastError} (${iso(w.lastErrorAt)})` : '-'],
      [
        'rendering',
        w.running.length
          ? w.running.map((r) => (r.chunk === null ? r.renderId : `${r.renderId} chunk ${r.chunk}`)).join(', ')
          : '-',
      ],
    ];
    process.stdout.write(lines.map(([k, v]) => `${k.padEnd(10)}  ${v}`).join('\n') + '\n');
  });

  subcommand(workers, 'drain <workerId>', {
    description:
      'Ask a worker to drain: within a heartbeat (5 s) it stops taking jobs, finishes the running ones and exits, as on SIGTERM. Asked through the database (workers listen on no port). Exit 1 when it is not running.',
    examples: [
      'render-farm workers drain build-07-4242-3fa85f64',
      'render-farm workers show build-07-4242-3fa85f64   # state: draining, then stopped',
    ],
  }).action(async (workerId: string, _opts, cmd: Command) => {
    const { requestDrain } = await import('../jobs/workers-repository.js');
    const r = await withExistingDb(configFor(cmd), (db) => requestDrain(db, workerId));
    if (!r) throw new UsageError(`no worker ${workerId} (see: render-farm workers list)`);
    const running = r.worker.running.length;
    process.stdout.write(
      `${r.worker.id}: ${r.already ? 'already draining' : 'drain requested'}; it stops taking jobs at its next heartbeat` +
        `${running ? `, finishes the ${running} it renders,` : ''} and exits\n`,
    );
  });
}
