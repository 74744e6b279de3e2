/** `render-farm doctor`'s node row: a WARN with a fix once the running Node's line is past its end of life. */
import { describe, expect, it } from 'vitest';
import { runCheck } from '../../src/doctor/check.js';
import { formatReport } from '../../src/doctor/format-report.js';
import { checkNodeRuntime, NODE_END_OF_LIFE, NODE_FIX } from '../../src/doctor/node-check.js';
import { CHECK_LIMITS } from '../../src/doctor/run-doctor.js';

const on = (day: string) => new Date(`${day}T12:00:00Z`);

describe('doctor: the Node line', () => {
  it('warns with a fix for Node 20 after 2026-04-30, and passes it the day before', () => {
    expect(checkNodeRuntime('v20.20.2', on('2026-11-27'))).toMatchObject({
      status: 'warn',
      detail: 'Node v20.20.2: end of life since 2026-04-30, no more security fixes',
      fix: NODE_FIX,
      data: { major: 20, endOfLife: '2026-04-30', ended: true },
    });
    expect(checkNodeRuntime('v20.20.2', on('2026-04-29'))).toMatchObject({
      status: 'ok',
      detail: 'Node v20.20.2 (supported until 2026-04-30)',
    });
  });

  it('passes the supported LTS lines with their end of life, and warns on the day a line ends', () => {
    expect(checkNodeRuntime('v24.21.0', on('2026-11-27'))).toMatchObject({
      status: 'ok',
      detail: 'Node v24.21.0 (supported until 2028-04-30)',
    });
    expect(checkNodeRuntime('v22.23.3', on('2026-11-27')).status).toBe('ok');
    expect(checkNodeRuntime('v26.12.1', on('2026-11-27')).status).toBe('ok');
    expect(checkNodeRuntime('v22.23.3', on('2027-04-30')).status).toBe('warn');
    expect(checkNodeRuntime('v24.21.0', on('2028-05-01')).status).toBe('warn');
  });

  it('treats the odd (short-lived) lines 21, 23, 25 and anything older than the table as ended', () => {
    for (const v of ['v21.7.3', 'v23.11.1', 'v25.2.0', 'v18.20.8']) {
      expect(checkNodeRuntime(v, on('2026-11-27')), v).toMatchObject({
        status: 'warn',
        fix: NODE_FIX,
        data: { ended: true },
      });
    }
  });

  it('passes a Node newer than the table, saying its end of life is not known', () => {
    expect(checkNodeRuntime('v27.0.0', on('2027-05-01'))).toMatchObject({
      status: 'ok',
      detail: "Node v27.0.0 (its end of life is not in this render-farm's table)",
    });
  });

  it('ends the even (LTS) lines on April 30, three years after their release', () => {
    expect([20, 22, 24, 26].map((m) => NODE_END_OF_LIFE[m])).toEqual([
      '2026-04-30',
      '2027-04-30',
      '2028-04-30',
      '2029-04-30',
    ]);
  });

  it('is a WARN row with a fix: line in the table', async () => {
    const row = await runCheck('node', async () => checkNodeRuntime('v20.20.2', on('2026-11-27')), CHECK_LIMITS.node);
    const table = formatReport({ ok: true, version: '0.0.0', checks: [row] }, Infinity);
    expect(table).toMatch(/^node\s+WARN\s+Node v20\.20\.2: end of life since 2026-04-30/m);
    expect(table).toContain(`fix: ${NODE_FIX}`);
    expect(table.trim().split('\n').at(-1)).toBe('all checks passed, 1 warning');
  });
});
