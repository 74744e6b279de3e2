/**
 * Pregen output when stdout is not a TTY (CI, pipes): one line per event worth logging,
 * prefixed with the item's position in the plan, e.g.
 * `[3/8] done      DEMO-ITX  sprite 512x512 cinematic  11 s ...  (5/8 items, 62%)`; the overall
 * count and percentage come from the same model as the ink UI's header.
 */
import { formatBytes, formatDuration } from './format.js';
import { percent, ProgressModel, type ItemRef, type PregenObserver } from './progress.js';

/** Progress lines are written at these fractions of an item's frames. */
const MARKS = [0.25, 0.5, 0.75];

export function plainReporter(write: (line: string) => void): PregenObserver {
  let total = 0;
  const position = new Map<number, number>();
  const marks = new Map<number, number>();
  const tag = (item: ItemRef) => `[${position.get(item.index) ?? '-'}/${total}]`;
  const name = (item: ItemRef) => `${item.label}  ${item.variant}`;
  const model = new ProgressModel();
  const overall = () => {
    const v = model.view();
    return `(${v.published}/${v.toRender} items, ${percent(v.fraction)}%)`;
  };
  return {
    plan(items) {
      model.plan(items);
      const todo = items.filter((i) => i.action === 'render');
      total = todo.length;
      todo.forEach((i, k) => position.set(i.index, k + 1));
      const count = (a: ItemRef['action']) => items.filter((i) => i.action === a).length;
      write(
        `pregen: ${items.length} items: ${total} to render, ${count('cached')} already pregenerated, ${count('duplicate')} duplicates, ${count('invalid')} invalid`,
      );
    },
    start(item) {
      model.start(item);
      write(`${tag(item)} rendering ${name(item)}`);
    },
    progress(item, p) {
      model.progress(item, p);
      if (p.stage !== 'render' || p.total === 0) return;
      const next = marks.get(item.index) ?? 0;
      if (next < MARKS.length && p.frame / p.total >= MARKS[next]!) {
        marks.set(item.index, next + 1);
        write(
          `${tag(item)} rendering ${name(item)}  ${Math.round(MARKS[next]! * 100)}%${p.fps > 0 ? `  ${p.fps.toFixed(1)} frames/s` : ''}`,
        );
      }
    },
    done(item, r) {
      model.done(item, r);
      write(
        `${tag(item)} done      ${name(item)}  ${formatDuration(r.ms)}  ${r.fps.toFixed(1)} frames/s  ${formatBytes(r.bytes)}  ${overall()}`,
      );
    },
    fail(item, reason) {
      model.fail(item, reason);
      write(`${tag(item)} failed    ${name(item)}: ${reason}  ${overall()}`);
    },
    cancel(item) {
      model.cancel(item);
    },
    notice(line) {
      write(`pregen: ${line}`);
    },
  };
}
