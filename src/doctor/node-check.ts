/** Doctor: whether the Node running render-farm is a line that still gets security fixes. */
import type { CheckOutcome } from './check.js';

/**
 * The end of life of each Node major (nodejs.org release schedule), the one place it is kept.
 * Even majors are LTS lines; odd majors end 6 months after their release. A major older than
 * the table has ended; one newer than it is not known to this version of render-farm.
 */
export const NODE_END_OF_LIFE: Readonly<Record<number, string>> = {
  20: '2026-04-30',
  21: '2024-06-01',
  22: '2027-04-30',
  23: '2025-06-01',
  24: '2028-04-30',
  25: '2026-06-01',
  26: '2029-04-30',
};

export const NODE_FIX =
  'run render-farm on Node 24 (LTS) or 22: in a checkout, bash scripts/node-runtime.sh 24 prints a bin dir to put first on PATH; or install it from nodejs.org';

/**
 * `version`: a Node version as process.version gives it ("v24.1.0"); `today`: the date to compare
 * the end of life with. Both are parameters so a test can ask about any Node on any day.
 */
export function checkNodeRuntime(version: string, today: Date): CheckOutcome {
  const major = Number(/^v?(\d+)\./.exec(version)?.[1]);
  const day = today.toISOString().slice(0, 10);
  const known = Object.keys(NODE_END_OF_LIFE).map(Number);
  const endOfLife = NODE_END_OF_LIFE[major];
  const data = { version, major, endOfLife: endOfLife ?? null };
  if (!Number.isInteger(major))
    return { status: 'warn', detail: `Node ${version}: not a version this check can read`, data };
  if (major < Math.min(...known))
    return {
      status: 'warn',
      detail: `Node ${version}: end of life (older than Node ${Math.min(...known)})`,
      fix: NODE_FIX,
      data: { ...data, ended: true },
    };
  if (!endOfLife)
    return { status: 'ok', detail: `Node ${version} (its end of life is not in this render-farm's table)`, data };
  // support ends on that day: from then on there are no more security fixes
  if (day >= endOfLife)
    return {
      status: 'warn',
      detail: `Node ${version}: end of life since ${endOfLife}, no more security fixes`,
      fix: NODE_FIX,
      data: { ...data, ended: true },
    };
  return { status: 'ok', detail: `Node ${version} (supported until ${endOfLife})`, data: { ...data, ended: false } };
}
