/** @jsxImportSource preact */
/** Renders per minute over the last hour as a small inline SVG bar chart (no chart library). */

const W = 600;
const H = 120;
const PAD = 20;

/** One bar per minute, oldest left; the tallest bar's count labels the scale. */
export function PerMinuteChart({ points }: { points: { t: string; count: number }[] }) {
  const max = Math.max(1, ...points.map((p) => p.count));
  const n = Math.max(points.length, 60);
  const bw = (W - PAD) / n;
  const total = points.reduce((s, p) => s + p.count, 0);
  return (
    <figure class="chart">
      <svg
        viewBox={`0 0 ${W} ${H}`}
        role="img"
        aria-label={`renders per minute, ${total} in the last hour`}
        data-total={String(total)}
      >
        <line x1={PAD} y1={H - PAD} x2={W} y2={H - PAD} class="axis" />
        <text x={0} y={12} class="tick">
          {max}
        </text>
        <text x={0} y={H - PAD} class="tick">
          0
        </text>
        {points.map((p, i) => {
          const h = ((H - 2 * PAD) * p.count) / max;
          return (
            <rect key={p.t} x={PAD + i * bw + 1} y={H - PAD - h} width={Math.max(1, bw - 2)} height={h} class="bar">
              <title>{`${new Date(p.t).toLocaleTimeString()}: ${p.count}`}</title>
            </rect>
          );
        })}
        <text x={PAD} y={H - 4} class="tick">
          -60 min
        </text>
        <text x={W - 30} y={H - 4} class="tick">
          now
        </text>
      </svg>
      <figcaption>{total} renders in the last hour</figcaption>
    </figure>
  );
}
