/**
 * Pregen's progress model (what the ink header and the plain lines both show): an item counts as
 * done once published (bytes stored, row written), not once its frames are drawn.
 */
import { describe, expect, it } from 'vitest';
import type { PlanItem } from '../../src/pregen/plan.js';
import { plainReporter } from '../../src/pregen/plain-reporter.js';
import { percent, ProgressModel, type RunView } from '../../src/pregen/progress.js';

const item = (index: number, action: PlanItem['action'] = 'render') =>
  ({ index, label: `DEMO-${index}`, variant: 'sprite 256x256 fast', action, frames: 72 }) as PlanItem;
const FRAMES = { frame: 72, total: 72, fps: 70 };
const PUBLISHED = { ms: 1000, bytes: 1, fps: 70 };

/** Five items to render (and one already cached), the first four published. */
function fourPublished(): { model: ProgressModel; items: PlanItem[] } {
  const model = new ProgressModel();
  const items = [1, 2, 3, 4, 5].map((i) => item(i));
  model.plan([...items, item(6, 'cached')]);
  for (const it of items.slice(0, 4)) {
    model.start(it);
    model.progress(it, { stage: 'render', ...FRAMES });
    model.progress(it, { stage: 'encode', ...FRAMES });
    model.progress(it, { stage: 'saving', ...FRAMES });
    model.done(it, PUBLISHED);
  }
  return { model, items };
}

const notFinished = (v: RunView) => {
  expect(v.published).toBe(4);
  expect(v.toRender).toBe(5);
  expect(v.fraction).toBeLessThan(1);
  expect(percent(v.fraction)).toBeLessThan(100);
};

describe('pregen progress model', () => {
  it('a local render: drawn, encoding and saving stay below 100% and n-1 items; published is 100%', () => {
    const { model, items } = fourPublished();
    const last = items[4]!;
    /** the view after last reports p, which must not count it finished */
    const viewAfter = (p: Parameters<ProgressModel['progress']>[1]) => {
      model.progress(last, p);
      const v = model.view();
      notFinished(v);
      return v;
    };
    model.start(last);
    const half = viewAfter({ stage: 'render', frame: 36, total: 72, fps: 70 });

    const drawn = viewAfter({ stage: 'render', ...FRAMES });
    // every frame is drawn, and the frames/s figure says so
    expect(drawn.framesDone).toBe(drawn.framesTotal);

    const encoding = viewAfter({ stage: 'encode', ...FRAMES });
    const saving = viewAfter({ stage: 'saving', ...FRAMES });
    // the bar moves on while drawing and again when saving (encoding starts where drawing ends)
    expect(half.fraction).toBeLessThan(drawn.fraction);
    expect(encoding.fraction).toBe(drawn.fraction);
    expect(encoding.fraction).toBeLessThan(saving.fraction);
    // the item's own line still says all its frames are drawn
    expect(saving.items.find((i) => i.index === 5)).toMatchObject({ status: 'saving', progress: 1 });

    model.done(last, PUBLISHED);
    const done = model.view();
    expect(done.published).toBe(5);
    expect(done.fraction).toBe(1);
    expect(percent(done.fraction)).toBe(100);
  });

  it('a farm render (progress up to 0.99, then copied and published) reaches 100% only when published', () => {
    const { model, items } = fourPublished();
    const last = items[4]!;
    model.start(last);
    model.progress(last, { stage: 'render', frame: Math.round(0.99 * 72), total: 72, fps: 0 });
    notFinished(model.view());
    model.progress(last, { stage: 'saving', ...FRAMES });
    notFinished(model.view());
    model.done(last, PUBLISHED);
    expect(model.view()).toMatchObject({ published: 5, fraction: 1 });
  });

  it('a failed item is not counted, keeps its share (no going backwards) and leaves nothing for the ETA', () => {
    let now = 0;
    const model = new ProgressModel(() => now);
    const [first, a, b] = [item(3), item(1), item(2)];
    model.plan([first, a, b]);
    // an item finished first: the ETA has a rate from then on
    model.start(first);
    now = 500;
    model.progress(first, { stage: 'render', ...FRAMES });
    model.done(first, PUBLISHED);
    model.start(a);
    model.start(b);
    now = 1_000;
    model.progress(a, { stage: 'render', frame: 36, total: 72, fps: 36 });
    model.progress(b, { stage: 'render', frame: 36, total: 72, fps: 36 });
    now = 2_000;
    // the rate takes its sample here; the failure at the same moment leaves it as it is
    model.progress(a, { stage: 'render', frame: 36, total: 72, fps: 36 });
    const before = model.view();
    model.fail(b, 'the encoder died');
    const after = model.view();
    expect(after.fraction).toBe(before.fraction);
    expect(after.published).toBe(1);
    // only a's remaining work is left: half as much as before the failure
    expect(after.etaSeconds! * 2).toBeCloseTo(before.etaSeconds!, 6);

    model.progress(a, { stage: 'encode', ...FRAMES });
    model.progress(a, { stage: 'saving', ...FRAMES });
    model.done(a, PUBLISHED);
    model.finish({ interrupted: false });
    const end = model.view();
    expect(end.published).toBe(2);
    expect(end.fraction).toBeLessThan(1);
    expect(end.etaSeconds).toBe(0);
  });

  it('a run with nothing to render is complete when it finishes', () => {
    const model = new ProgressModel();
    model.plan([item(1, 'cached'), item(2, 'duplicate')]);
    expect(model.view()).toMatchObject({ toRender: 0, published: 0, fraction: 0 });
    model.finish({ interrupted: false });
    expect(model.view()).toMatchObject({ toRender: 0, fraction: 1 });
  });

  it('percent never rounds up to 100', () => {
    expect(percent(0.999)).toBe(99);
    expect(percent(1)).toBe(100);
    expect(percent(0)).toBe(0);
  });
});

describe('pregen plain lines', () => {
  it('say n-1 items and below 100% while the last item encodes, then n items and 100% once it is published', () => {
    const lines: string[] = [];
    const out = plainReporter((l) => lines.push(l));
    const items = [1, 2, 3, 4, 5].map((i) => item(i));
    out.plan!(items);
    for (const it of items.slice(0, 3)) {
      out.start!(it);
      out.done!(it, PUBLISHED);
    }
    // two renderers: the fifth is drawn and encoding when the fourth is published
    out.start!(items[3]!);
    out.start!(items[4]!);
    out.progress!(items[4]!, { stage: 'render', ...FRAMES });
    out.progress!(items[4]!, { stage: 'encode', ...FRAMES });
    out.done!(items[3]!, PUBLISHED);
    const fourth = lines.at(-1)!;
    expect(fourth).toMatch(/^\[4\/5\] done\s+DEMO-4 .*\(4\/5 items, 9\d%\)$/);

    out.progress!(items[4]!, { stage: 'saving', ...FRAMES });
    out.done!(items[4]!, PUBLISHED);
    expect(lines.at(-1)).toMatch(/^\[5\/5\] done\s+DEMO-5 .*\(5\/5 items, 100%\)$/);
    expect(lines.filter((l) => /100%\)/.test(l))).toHaveLength(1);
  });
});
