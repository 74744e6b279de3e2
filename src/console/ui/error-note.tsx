/** @jsxImportSource preact */
/** A failed call shown in the page: its message and machine code (the API's error body). */
import { ApiError } from './http.js';

/** Nothing when `error` is null. */
export function ErrorNote({ error }: { error: Error | null | undefined }) {
  if (!error) return null;
  return (
    <p class="error-note" role="alert">
      {error.message}
      {error instanceof ApiError ? <code class="error-code">{error.code}</code> : null}
    </p>
  );
}
