/** An error's message for a report, as `(err && err.message) || String(err)` gives it: a thrown non-Error works too. */
export function errorMessage(err: unknown): string {
  const message = typeof err === 'object' && err !== null ? (err as { message?: unknown }).message : undefined;
  return (typeof message === 'string' && message) || String(err);
}
