/**
 * A job's status (its render's): the four the API, the console, the CLI and the renders table
 * share. A cancelled job is `error` with a message saying so; there is no fifth status.
 */
export const JOB_STATUSES = ['queued', 'processing', 'completed', 'error'] as const;

export type JobStatus = (typeof JOB_STATUSES)[number];

/** Whether a job has ended (completed or error): its status changes no more unless it is retried. */
export const isFinal = (s: JobStatus): boolean => s === 'completed' || s === 'error';
