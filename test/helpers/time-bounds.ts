/**
 * Bounds on how long a promise may take: for "this must end within N s" (a hang fails the test
 * with a clear message) and for "this must NOT happen for N s" (the one place a test waits a
 * fixed time on purpose). The timer is cleared either way, so no stray timer outlives the test.
 */

/** p's value, or a rejection naming `what` if p has not settled after ms. */
export async function within<T>(p: Promise<T>, ms: number, what: string): Promise<T> {
  const late = Symbol('late');
  const v = await valueWithin(p, ms, late);
  if (v === late) throw new Error(`${what} did not happen within ${ms} ms`);
  return v as T;
}

/** p's value, or `fallback` if p has not settled after ms. */
export function valueWithin<T, F>(p: Promise<T>, ms: number, fallback: F): Promise<T | F> {
  let timer: NodeJS.Timeout | undefined;
  const bound = new Promise<F>((r) => (timer = setTimeout(() => r(fallback), ms)));
  return Promise.race([p, bound]).finally(() => clearTimeout(timer));
}
