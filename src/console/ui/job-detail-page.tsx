/** @jsxImportSource preact */
/**
 * One job in full: its build (share code and parts), size, profile and scene, cost estimate,
 * attempts and error, its chunks as a timeline per worker, and its result (the video in a
 * player, the sprite as a turntable, the still; each captioned, with download and copy-URL), with
 * retry and cancel behind a confirmation. Events for this job reload it, so progress, chunks and
 * the result appear without a page reload.
 */
import type { ComponentChildren } from 'preact';
import { useState } from 'preact/hooks';
import { isFinal, type JobDetailView, type JobFull, type JobStatus } from '../console-api.js';
import { ChunkTimeline } from './chunk-timeline.js';
import { ConfirmDialog } from './confirm-dialog.js';
import { ErrorNote } from './error-note.js';
import { duration, when } from './format.js';
import { href } from './hash-router.js';
import { apiCall } from './http.js';
import { useJobEvents } from './job-events.js';
import { useAction } from './use-action.js';
import { LoadingNote } from './loading-note.js';
import { ProgressBar } from './progress-bar.js';
import { Table } from './table.js';
import { Turntable } from './turntable.js';
import { useFetch } from './use-fetch.js';

type Action = 'retry' | 'cancel';

const CAN: Record<Action, (job: JobFull) => boolean> = {
  // a cancelled job is an error too (the spec's statuses have no other end)
  retry: (j) => j.status === 'error',
  // the server says whether this session may (a customer cannot cancel a render another customer shares)
  cancel: (j) => (j.status === 'queued' || j.status === 'processing') && j.mayCancel,
};

/** The page of job `id`. */
export function JobDetailPage({ id }: { id: string }) {
  const { data, error, reload } = useFetch<JobDetailView>(`/jobs/${encodeURIComponent(id)}`);
  const [live, setLive] = useState<{ status: JobStatus; progress: number } | null>(null);
  const [asking, setAsking] = useState<Action | null>(null);
  const action = useAction();
  useJobEvents((e) => {
    if (e.id !== id) return;
    setLive({ status: e.status, progress: e.progress });
    reload();
  });
  if (!data) {
    return (
      <section class="page job">
        <h2>Job {id}</h2>
        <ErrorNote error={error} />
        <LoadingNote error={error} />
      </section>
    );
  }
  // the fetched row is newer than an event that arrived before it; an event that says the job
  // ended waits for the row its reload fetches, which carries the result or the error (else the
  // page would say "completed" with nothing to show until that fetch returns)
  const job: JobFull = live && !isFinal(data.job.status) && !isFinal(live.status) ? { ...data.job, ...live } : data.job;
  const run = async (a: Action) => {
    setAsking(null);
    await action.run(async () => {
      await apiCall('POST', `/jobs/${encodeURIComponent(id)}/${a}`);
      setLive(null);
      reload();
    });
  };
  return (
    <section class="page job" data-job={job.id} data-status={job.status}>
      <p class="crumbs">
        <a href={href('jobs')}>Jobs</a> / <code>{job.id}</code>
      </p>
      <h2>
        {job.format} job <span class={`badge status-${job.status}`}>{job.status}</span>
      </h2>
      <ProgressBar value={job.progress} status={job.status} />
      <div class="actions">
        {(['retry', 'cancel'] as const).map((a) =>
          CAN[a](job) ? (
            <button
              key={a}
              type="button"
              class={a === 'cancel' ? 'danger' : ''}
              data-action={a}
              disabled={action.busy}
              onClick={() => setAsking(a)}
            >
              {a === 'retry' ? 'Retry' : 'Cancel'}
            </button>
          ) : null,
        )}
      </div>
      <ErrorNote error={action.error} />
      <ConfirmDialog
        open={asking !== null}
        title={asking === 'retry' ? 'Retry this job?' : 'Cancel this job?'}
        confirmLabel={asking === 'retry' ? 'Retry' : 'Cancel the job'}
        onConfirm={() => asking && run(asking)}
        onCancel={() => setAsking(null)}
      >
        {asking === 'retry' ? (
          <p>The render is queued again from the start, as `render-farm jobs retry` does.</p>
        ) : (
          <p>A queued job is cancelled at once; a running one is asked to stop.</p>
        )}
      </ConfirmDialog>
      {job.error ? (
        <div class="job-error" role="alert" data-error>
          <h3>Error</h3>
          <pre>{job.error}</pre>
        </div>
      ) : null}
      <dl class="facts">
        <dt>build</dt>
        <dd data-fact="build">
          {job.shareCode ? <code>{job.shareCode}</code> : null}
          <ul class="job-parts">
            {job.parts.map((p) => (
              <li key={`${p.category}/${p.id}`}>
                <span class="muted">{p.category}</span>{' '}
                {p.name ?? <span class="muted">(no longer in the catalog)</span>} <code>{p.id}</code>
              </li>
            ))}
          </ul>
        </dd>
        <dt>size</dt>
        <dd data-fact="size">{job.size ?? '-'}</dd>
        <dt>profile</dt>
        <dd data-fact="profile">{job.profile ?? '-'}</dd>
        <dt>scene</dt>
        <dd data-fact="scene">{job.scene ?? '-'}</dd>
        <dt>customer</dt>
        <dd>
          {job.customer} ({job.environment})
        </dd>
        <dt>kind</dt>
        <dd>{job.kind}</dd>
        <dt>cost estimate</dt>
        <dd>{job.estimatedCostS !== null ? `${duration(job.estimatedCostS)} of worker time` : '-'}</dd>
        <dt>attempts</dt>
        <dd data-attempts={String(job.attempts)}>{job.attempts}</dd>
        <dt>created</dt>
        <dd data-fact="created">{when(job.createdAt)}</dd>
        <dt>updated</dt>
        <dd data-fact="updated">{when(job.updatedAt)}</dd>
      </dl>
      <Result job={job} />
      {data.chunks.length > 0 ? (
        <>
          <h3>Chunks</h3>
          <ChunkTimeline chunks={data.chunks} />
          <Table class="chunks" head={['#', 'frames', 'status', 'worker', 'done', 'time', 'attempts', 'error']}>
            {data.chunks.map((c) => (
              <tr key={c.idx} data-chunk={String(c.idx)}>
                <td>{c.idx}</td>
                <td>
                  {c.start}-{c.end - 1}
                </td>
                <td>
                  <span class={`badge status-${c.status}`}>{c.status}</span>
                </td>
                <td>{c.worker ?? '-'}</td>
                <td>
                  {c.framesDone}/{c.end - c.start}
                </td>
                <td>
                  {c.startedAt && c.finishedAt
                    ? duration((Date.parse(c.finishedAt) - Date.parse(c.startedAt)) / 1000)
                    : '-'}
                </td>
                <td>{c.attempts}</td>
                <td class="error-cell">{c.error ?? ''}</td>
              </tr>
            ))}
          </Table>
        </>
      ) : null}
      <h3>Request</h3>
      <pre class="request">{JSON.stringify(job.request, null, 2)}</pre>
    </section>
  );
}

/** The finished files, each captioned, with a download link and a copy-URL button: a player, a turntable, a still. */
function Result({ job }: { job: JobFull }) {
  const r = job.result;
  if (!r || (!r.video && !r.sprite && !r.screenshot)) return null;
  return (
    <div class="result">
      <h3>Result</h3>
      {r.video ? (
        <ResultFile
          kind="video"
          url={r.video}
          caption="Turntable video (MP4): one full turn that loops"
          file={`${job.id}.mp4`}
        >
          <video class="result-video" src={r.video} controls preload="metadata" playsInline />
        </ResultFile>
      ) : null}
      {r.sprite ? (
        <ResultFile
          kind="sprite"
          url={r.sprite}
          caption={
            r.spriteLayout
              ? `Sprite sheet (WebP, ${r.spriteLayout.frames} frames): drag to turn, or use the arrow keys`
              : 'Sprite sheet (WebP)'
          }
          file={`${job.id}.webp`}
        >
          {r.spriteLayout ? (
            <Turntable url={r.sprite} layout={r.spriteLayout} />
          ) : (
            <img class="result-sheet" src={r.sprite} alt="sprite sheet" />
          )}
        </ResultFile>
      ) : null}
      {r.screenshot ? (
        <ResultFile kind="still" url={r.screenshot} caption="Still: the hero angle" file={`${job.id}-still`}>
          <img class="result-still" src={r.screenshot} alt="still of the build" />
        </ResultFile>
      ) : null}
    </div>
  );
}

/** One result file: the view, its caption, Download and Copy URL (the absolute URL, as an integrator would use it). */
function ResultFile({
  kind,
  url,
  caption,
  file,
  children,
}: {
  kind: string;
  url: string;
  caption: string;
  file: string;
  children: ComponentChildren;
}) {
  const [copied, setCopied] = useState<'yes' | 'no' | null>(null);
  const absolute = new URL(url, window.location.href).href;
  const copy = async () => {
    try {
      await navigator.clipboard.writeText(absolute);
      setCopied('yes');
    } catch {
      // no clipboard (an insecure origin, a denied permission): the URL is shown to copy by hand
      setCopied('no');
    }
  };
  return (
    <figure class="result-file" data-result={kind}>
      {children}
      <figcaption>
        <span class="caption">{caption}</span>
        <span class="result-links">
          <a href={url} download={file} data-action="download">
            Download
          </a>
          <button
            type="button"
            class="secondary"
            data-action="copy-url"
            data-copied={copied ?? undefined}
            onClick={copy}
          >
            {copied === 'yes' ? 'Copied' : 'Copy URL'}
          </button>
        </span>
        {copied === 'no' ? (
          <input class="result-url" readOnly value={absolute} onFocus={(e) => e.currentTarget.select()} />
        ) : null}
      </figcaption>
    </figure>
  );
}
