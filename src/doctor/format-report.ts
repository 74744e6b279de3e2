/** The doctor's table: one row per check, the fix under every row that did not pass. */
import type { CheckResult } from './check.js';
import type { DoctorReport } from './run-doctor.js';

const LABEL: Record<CheckResult['status'], string> = { ok: 'ok', warn: 'WARN', fail: 'FAIL', skip: 'skip', info: '--' };

export function formatReport(report: DoctorReport, width = 120): string {
  const idWidth = Math.max(5, ...report.checks.map((c) => c.id.length));
  const detailWidth = Math.max(40, width - idWidth - 2 - 6 - 2);
  const clip = (s: string) => (s.length > detailWidth ? s.slice(0, detailWidth - 1) + '…' : s);
  const lines = [
    `render-farm doctor ${report.version}`,
    '',
    `${'CHECK'.padEnd(idWidth)}  ${'RESULT'.padEnd(6)}  DETAIL`,
  ];
  for (const c of report.checks) {
    lines.push(`${c.id.padEnd(idWidth)}  ${LABEL[c.status].padEnd(6)}  ${clip(c.detail)}`);
    if (c.fix && (c.status === 'fail' || c.status === 'warn'))
      lines.push(`${''.padEnd(idWidth)}  ${''.padEnd(6)}  fix: ${c.fix}`);
  }
  const failed = report.checks.filter((c) => c.status === 'fail').length;
  const warned = report.checks.filter((c) => c.status === 'warn').length;
  lines.push(
    '',
    failed
      ? `${failed} check${failed > 1 ? 's' : ''} failed${warned ? `, ${warned} warning${warned > 1 ? 's' : ''}` : ''}: renders will not work until fixed`
      : warned
        ? `all checks passed, ${warned} warning${warned > 1 ? 's' : ''}`
        : 'all checks passed',
  );
  return lines.join('\n') + '\n';
}
