/** @jsxImportSource preact */
/** A job's progress as a bar; its value (0..1) is in data-progress for tests and scripts. */

/** `value` 0..1; `status` colours it (error red, completed green). */
export function ProgressBar({ value, status }: { value: number; status?: string }) {
  const pct = Math.round(Math.min(1, Math.max(0, value)) * 100);
  return (
    <div
      class={`progress progress-${status ?? 'processing'}`}
      role="progressbar"
      aria-valuenow={pct}
      aria-valuemin={0}
      aria-valuemax={100}
      data-progress={String(value)}
    >
      <div class="progress-fill" style={{ width: `${pct}%` }} />
      <span class="progress-label">{pct}%</span>
    </div>
  );
}
