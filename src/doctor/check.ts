/** One doctor check's outcome: a row of the table, with the fix when it did not pass. info: a fact, neither pass nor fail (no GPU). */
export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip' | 'info';

export interface CheckResult {
  id: string;
  status: CheckStatus;
  /** what was found (paths, versions, measurements) */
  detail: string;
  /** how to fix a warn or fail, one line */
  fix?: string;
  /** how long the check took */
  ms: number;
  /** machine-readable facts for --json */
  data?: Record<string, unknown>;
}

export type CheckOutcome = Omit<CheckResult, 'id' | 'ms'>;

/** How long a check may take, and the fix its row shows when it times out or throws. */
export interface CheckLimit {
  timeoutMs: number;
  fix: string;
}

/**
 * Runs `fn` as check `id`, timing it. A check that throws or gives no answer within its limit
 * is a failed row with the limit's fix, never a crash or a hang; a warn or fail the check
 * returned without a fix gets that fix too, so every such row says what to do.
 */
export async function runCheck(id: string, fn: () => Promise<CheckOutcome>, limit: CheckLimit): Promise<CheckResult> {
  const t0 = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const outcome = await Promise.race([
      fn(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(
          () => reject(new Error(`no answer within ${Math.round(limit.timeoutMs / 1000)} s`)),
          limit.timeoutMs,
        );
      }),
    ]);
    const fix = outcome.status === 'warn' || outcome.status === 'fail' ? { fix: outcome.fix || limit.fix } : {};
    return { id, ...outcome, ...fix, ms: Math.round(performance.now() - t0) };
  } catch (err) {
    return {
      id,
      status: 'fail',
      detail: (err as Error).message.split('\n')[0] ?? String(err),
      fix: limit.fix,
      ms: Math.round(performance.now() - t0),
    };
  } finally {
    clearTimeout(timer);
  }
}
