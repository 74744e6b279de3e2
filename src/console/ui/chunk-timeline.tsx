/** @jsxImportSource preact */
/**
 * A split render's chunks as a timeline: one lane per worker, one bar per chunk from its start to
 * its finish (or now, while it runs), labelled with its frames; who rendered what and for how long.
 */
import type { ChunkView } from '../console-api.js';
import { duration, shortId } from './format.js';

const W = 720;
const LANE = 28;
const LABEL = 110;
const AXIS = 22;

/** Chunks not yet started are listed under the chart, not drawn. */
export function ChunkTimeline({ chunks, now = Date.now() }: { chunks: ChunkView[]; now?: number }) {
  const started = chunks.filter((c) => c.startedAt);
  if (started.length === 0) return <p class="muted">No chunk has started yet.</p>;
  const t0 = Math.min(...started.map((c) => Date.parse(c.startedAt as string)));
  const end = (c: ChunkView) => (c.finishedAt ? Date.parse(c.finishedAt) : now);
  const t1 = Math.max(t0 + 1000, ...started.map(end));
  const workers = [...new Set(started.map((c) => c.worker ?? '(unknown)'))];
  const x = (t: number) => LABEL + ((W - LABEL - 10) * (t - t0)) / (t1 - t0);
  const height = workers.length * LANE + AXIS;
  return (
    <figure class="timeline">
      <svg
        viewBox={`0 0 ${W} ${height}`}
        role="img"
        aria-label="chunks by worker over time"
        data-chunks={String(started.length)}
      >
        {workers.map((w, lane) => (
          <g key={w}>
            <text x={4} y={lane * LANE + 18} class="lane-label">
              {shortId(w)}
              <title>{w}</title>
            </text>
            <line x1={LABEL} y1={(lane + 1) * LANE} x2={W} y2={(lane + 1) * LANE} class="lane-line" />
          </g>
        ))}
        {started.map((c) => {
          const lane = workers.indexOf(c.worker ?? '(unknown)');
          const s = Date.parse(c.startedAt as string);
          const bx = x(s);
          const bw = Math.max(3, x(end(c)) - bx);
          return (
            <g key={c.idx} class={`chunk chunk-${c.status}`} data-idx={String(c.idx)}>
              <rect x={bx} y={lane * LANE + 4} width={bw} height={LANE - 8} rx={3} />
              {bw > 60 ? (
                <text x={bx + 4} y={lane * LANE + 18} class="chunk-label">
                  {`${c.start}-${c.end - 1}`}
                </text>
              ) : null}
              <title>{`chunk ${c.idx}: frames ${c.start}-${c.end - 1}, ${c.status}, ${duration((end(c) - s) / 1000)}${c.error ? `: ${c.error}` : ''}`}</title>
            </g>
          );
        })}
        <text x={LABEL} y={height - 6} class="tick">
          0 s
        </text>
        <text x={W - 60} y={height - 6} class="tick">
          {duration((t1 - t0) / 1000)}
        </text>
      </svg>
    </figure>
  );
}
