/** The control-plane bench's report as text: one row per worker count, the growth ratios, the query times. */
import type { ControlPlaneReport } from './run.js';

const row = (cells: readonly (string | number | null)[]) =>
  `| ${cells.map((c) => (c === null ? 'n/a' : String(c))).join(' | ')} |`;

export function formatReport(r: ControlPlaneReport): string {
  const o = r.options;
  const lines: string[] = [];
  lines.push(
    `control plane: ${o.renders} renders a run at ${o.rate}/s from ${o.customers} customers (${Math.round(o.repeatShare * 100)}% repeats), fake stage ${o.frameMs} ms/frame, ${r.machine.cpus} CPUs (${r.machine.model})`,
  );
  lines.push('');
  lines.push(
    row([
      'workers x conc.',
      'renders ok',
      'tasks (render/chunk/assemble)',
      'jobs claimed/s',
      'claim p50 ms',
      'claim p99 ms',
      'submit p99 ms',
      'poll p99 ms',
      'conns max total',
      'conns max/worker (pool)',
      'DB CPU s /1000 renders',
      'DB cores',
    ]),
  );
  lines.push(row(Array.from({ length: 12 }, (_, i) => (i === 0 ? '---' : '---:'))));
  for (const f of r.runs) {
    lines.push(
      row([
        f.label,
        `${f.completed}/${f.renders}`,
        `${f.tasks.render}/${f.tasks.chunk}/${f.tasks.assemble}`,
        f.jobsClaimedPerS,
        f.claimMs.p50,
        f.claimMs.p99,
        f.submitMs.p99,
        f.pollMs.p99,
        f.connections.maxTotal,
        `${f.connections.maxPerWorker} (${f.connections.poolSizePerWorker})`,
        f.dbCpuSPer1000,
        f.dbCores,
      ]),
    );
  }
  for (const f of r.runs) {
    if (!f.topStatements.length) continue;
    lines.push('');
    lines.push(`${f.label}: statements by database time (pg_stat_statements)`);
    for (const st of f.topStatements.slice(0, 5))
      lines.push(`  ${st.totalMs} ms total, ${st.calls} calls, ${st.meanMs} ms mean: ${st.query}`);
  }
  if (r.growth) {
    lines.push('');
    lines.push(`growth ${r.growth.from} -> ${r.growth.to} workers (ratio of the figures):`);
    lines.push(
      Object.entries(r.growth.ratios)
        .map(([k, v]) => `${k} x${v ?? 'n/a'}`)
        .join(', '),
    );
  }
  if (r.queries && r.seeded) {
    lines.push('');
    lines.push(`queries on ${r.seeded.renders} renders / ${r.seeded.events} render_events (median ms):`);
    lines.push(
      Object.entries(r.queries)
        .map(([k, v]) => `${k} ${v.ms}`)
        .join(', '),
    );
  }
  return lines.join('\n');
}
