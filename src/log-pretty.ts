/**
 * Human log lines for terminals (pino writes JSON; this destination reformats it):
 * `12:00:01.234 INFO  render completed  renderId=… ms=4100 backend=egl`. Logs to files and
 * pipes stay JSON (see log.ts), for machines.
 */
const LEVELS: Record<number, [string, string]> = {
  10: ['TRACE', '\x1b[90m'],
  20: ['DEBUG', '\x1b[90m'],
  30: ['INFO ', '\x1b[32m'],
  40: ['WARN ', '\x1b[33m'],
  50: ['ERROR', '\x1b[31m'],
  60: ['FATAL', '\x1b[35m'],
};
const OMIT = new Set(['level', 'time', 'msg', 'pid', 'hostname', 'name', 'v', 'err']);

function value(v: unknown): string {
  if (typeof v === 'string') return /[\s"=]/.test(v) ? JSON.stringify(v) : v;
  if (v instanceof Object) return JSON.stringify(v);
  return String(v);
}

/** One pino JSON record as a human line (plus an error's stack for error and fatal). */
export function formatRecord(line: string, color: boolean): string {
  let r: Record<string, unknown>;
  try {
    r = JSON.parse(line) as Record<string, unknown>;
  } catch {
    return line.endsWith('\n') ? line : line + '\n';
  }
  const [label, tint] = LEVELS[Number(r.level)] ?? ['LOG  ', ''];
  const time = typeof r.time === 'number' ? new Date(r.time).toISOString().slice(11, 23) : '';
  const fields = Object.entries(r)
    .filter(([k, v]) => !OMIT.has(k) && v !== undefined)
    .map(([k, v]) => `${k}=${value(v)}`);
  const err = r.err as { message?: string; stack?: string } | string | undefined;
  if (err) fields.unshift(`err=${value(typeof err === 'string' ? err : err.message)}`);
  const head = color ? `\x1b[90m${time}\x1b[0m ${tint}${label}\x1b[0m` : `${time} ${label}`;
  let out = `${head} ${String(r.msg ?? '')}${fields.length ? `  ${color ? '\x1b[90m' : ''}${fields.join(' ')}${color ? '\x1b[0m' : ''}` : ''}\n`;
  const stack = typeof err === 'object' ? err?.stack : undefined;
  if (stack && Number(r.level) >= 50)
    out += stack
      .split('\n')
      .slice(1)
      .map((l) => `    ${l.trim()}\n`)
      .join('');
  return out;
}

/** A pino destination writing human lines to `out`. */
export function prettyDestination(out: NodeJS.WritableStream & { isTTY?: boolean }, color = out.isTTY === true) {
  return {
    write(chunk: string): void {
      for (const line of chunk.split('\n')) if (line) out.write(formatRecord(line, color));
    },
  };
}
