/** One doctor check's outcome: a row of the table, with the fix when it did not pass. */
export type CheckStatus = 'ok' | 'warn' | 'fail' | 'skip';

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

/** Runs `fn` as check `id`, timing it; an unexpected throw is a failed row, never a crash. */
export async function runCheck(id: string, fn: () => Promise<CheckOutcome>, timeoutMs = 120_000): Promise<CheckResult> {
  const t0 = performance.now();
  let timer: NodeJS.Timeout | undefined;
  try {
    const outcome = await Promise.race([
      fn(),
      new Promise<never>((_, reject) => {
        timer = setTimeout(() => reject(new Error(`no answer within ${Math.round(timeoutMs / 1000)} s`)), timeoutMs);
      }),
    ]);
    return { id, ...outcome, ms: Math.round(performance.now() - t0) };
  } catch (err) {
    return { id, status: 'fail', detail: (err as Error).message.split('\n')[0] ?? String(err), ms: Math.round(performance.now() - t0) };
  } finally {
    clearTimeout(timer);
  }
}
