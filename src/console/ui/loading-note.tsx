/** @jsxImportSource preact */
/** What a page shows until its data comes: "Loading…", or nothing once the load failed (its ErrorNote says why). */
export function LoadingNote({ error }: { error: Error | null | undefined }) {
  return error ? null : <p class="muted">Loading…</p>;
}
