/** The one-line pointer to `render-farm doctor` that `up` and `worker` print when a component is missing. */
export const DOCTOR_HINT =
  'hint: run "render-farm doctor" to check Chromium, WebGL, ffmpeg, PostgreSQL, storage and ports, each with its fix';

/** Errors that mean a component is missing or unusable (not a bug): worth the hint. */
export function isMissingComponent(err: unknown): boolean {
  const name = (err as Error)?.name;
  return name === 'MissingToolError' || name === 'WebGlUnavailableError' || name === 'DatabaseUnavailableError';
}
