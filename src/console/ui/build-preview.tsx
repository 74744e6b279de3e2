/** @jsxImportSource preact */
/**
 * A build's "render preview": submits a fast 256 px sprite for the session's customer and
 * environment, shows its progress from the live events, then the sprite as a turntable.
 */
import { useState } from 'preact/hooks';
import { isFinal, type JobDetailView, type JobStatus } from '../console-api.js';
import { ErrorNote } from './error-note.js';
import { href } from './hash-router.js';
import { apiCall } from './http.js';
import { useJobEvents } from './job-events.js';
import { ProgressBar } from './progress-bar.js';
import { Turntable } from './turntable.js';
import { useAction } from './use-action.js';
import { useFetch } from './use-fetch.js';

/** The button, then the preview of build `shareCode`. */
export function BuildPreview({ shareCode }: { shareCode: string }) {
  const [jobId, setJobId] = useState<string | null>(null);
  const { busy, error, run } = useAction();
  const submit = () =>
    run(async () => {
      const r = await apiCall<{ jobId: string }>('POST', '/preview', { shareCode });
      setJobId(r.jobId);
    });
  return (
    <div class="preview" data-preview={shareCode}>
      {jobId ? null : (
        <button type="button" data-action="preview" disabled={busy} onClick={submit}>
          Render preview
        </button>
      )}
      <ErrorNote error={error} />
      {jobId ? <PreviewJob jobId={jobId} /> : null}
    </div>
  );
}

function PreviewJob({ jobId }: { jobId: string }) {
  const { data, error, reload } = useFetch<JobDetailView>(`/jobs/${encodeURIComponent(jobId)}`);
  const [live, setLive] = useState<{ status: JobStatus; progress: number } | null>(null);
  useJobEvents((e) => {
    if (e.id !== jobId) return;
    setLive({ status: e.status, progress: e.progress });
    if (isFinal(e.status)) reload();
  });
  const job = data?.job;
  const ended = job && isFinal(job.status);
  const status = ended ? job.status : (live?.status ?? job?.status ?? 'queued');
  const progress = ended ? job.progress : (live?.progress ?? job?.progress ?? 0);
  return (
    <div class="preview-job" data-job={jobId} data-status={status}>
      <p>
        <a href={href('jobs', jobId)}>preview job</a> <span class={`badge status-${status}`}>{status}</span>
      </p>
      <ProgressBar value={progress} status={status} />
      <ErrorNote error={error} />
      {job?.error ? <p class="error-note">{job.error}</p> : null}
      {job?.result?.sprite && job.result.spriteLayout ? (
        <Turntable url={job.result.sprite} layout={job.result.spriteLayout} />
      ) : null}
    </div>
  );
}
