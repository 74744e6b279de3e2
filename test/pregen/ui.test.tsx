/** The pregen ink UI, rendered with ink-testing-library from a ProgressStore fed by runner events. */
import { render } from 'ink-testing-library';
import { describe, expect, it } from 'vitest';
import type { PlanItem } from '../../src/pregen/plan.js';
import { ProgressStore } from '../../src/pregen/progress.js';
import { PregenApp } from '../../src/pregen/ui/pregen-app.js';
import { waitFor } from '../helpers/wait-for.js';

const item = (index: number, label: string, action: PlanItem['action'] = 'render', reason?: string) =>
  ({ index, label, variant: 'sprite 256x256 fast', action, reason, frames: 72 }) as PlanItem;
/** The UI's frame once it shows `pattern` (ink redraws asynchronously). */
const frameShowing = (ui: { lastFrame(): string | undefined }, pattern: RegExp) =>
  waitFor(
    `the UI to show ${pattern}`,
    () => {
      const frame = ui.lastFrame();
      return frame !== undefined && pattern.test(frame) ? frame : null;
    },
    { timeoutMs: 5_000, intervalMs: 10 },
  );

/** Starts and publishes each of items in turn. */
const publish = (store: ProgressStore, items: PlanItem[]) => {
  for (const it of items) {
    store.start(it);
    store.done(it, { ms: 1000, bytes: 1, fps: 70 });
  }
};

describe('pregen UI', () => {
  it('shows overall progress, per-item status, frames/s, ETA and a failures summary', async () => {
    let now = 0;
    const store = new ProgressStore(0, () => now);
    const items = [
      item(1, 'DEMO-GLASS'),
      item(2, 'DEMO-ITX'),
      item(3, 'DEMO-RGB'),
      item(4, 'matrix #4', 'cached', 'already pregenerated'),
    ];
    const ui = render(<PregenApp store={store} />);
    store.plan(items);
    store.start(items[0]!);
    now = 1_000;
    store.progress(items[0]!, { stage: 'render', frame: 36, total: 72, fps: 9 });
    now = 5_000;
    store.progress(items[0]!, { stage: 'render', frame: 36, total: 72, fps: 9 });
    let frame = await frameShowing(ui, /50%\s+9\.0 frames\/s/);
    expect(frame).toMatch(/rendering\s+DEMO-GLASS\s+sprite 256x256 fast .*50%\s+9\.0 frames\/s/);
    expect(frame).toMatch(/queued\s+DEMO-ITX/);
    expect(frame).toMatch(/0\/3 items/);
    // 36 frames in 4 s: 9 frames/s overall; no ETA before an item is finished (ETA test below)
    expect(frame).toMatch(/9\.0 frames\/s/);
    expect(frame).toMatch(/ETA --/);

    store.done(items[0]!, { ms: 8_000, bytes: 120 * 1024, fps: 9 });
    store.start(items[1]!);
    store.fail(items[1]!, 'unknown part ID: nosuchgpu1');
    store.start(items[2]!);
    frame = await frameShowing(ui, /failed\s+DEMO-ITX/);
    expect(frame).toMatch(/done\s+DEMO-GLASS .*8 s\s+9\.0 frames\/s\s+120\.0 KiB/);
    expect(frame).toMatch(/failed\s+DEMO-ITX .*unknown part ID: nosuchgpu1/);
    // items count once published: the failed one is not, and says so on the line below
    expect(frame).toMatch(/1\/3 items/);
    expect(frame).toMatch(/1 done, 1 failed/);

    store.finish({ interrupted: true });
    frame = await frameShowing(ui, /interrupted:/);
    expect(frame).toMatch(/1 failed:/);
    expect(frame).toMatch(/#2 DEMO-ITX \(sprite 256x256 fast\): unknown part ID: nosuchgpu1/);
    expect(frame).toMatch(/interrupted: 1 item not rendered; run the same command again to resume/);
    expect(frame).not.toMatch(/ETA/);
    ui.unmount();
  });

  it('does not say 100% or 5/5 while the last item is encoding: an item counts once published', async () => {
    const store = new ProgressStore(0);
    const items = [1, 2, 3, 4, 5].map((i) => item(i, `DEMO-${i}`));
    const ui = render(<PregenApp store={store} />);
    store.plan(items);
    publish(store, items.slice(0, 4));
    // the fifth: every frame drawn, the video being encoded, nothing published yet
    store.start(items[4]!);
    store.progress(items[4]!, { stage: 'render', frame: 72, total: 72, fps: 70 });
    store.progress(items[4]!, { stage: 'encode', frame: 72, total: 72, fps: 70 });
    let frame = await frameShowing(ui, /encoding\s+DEMO-5/);
    expect(frame).toMatch(/4\/5 items\s+9\d%/);
    expect(frame).not.toMatch(/100%/);
    expect(frame).not.toMatch(/5\/5 items/);

    // bytes stored, row not yet written: still not done
    store.progress(items[4]!, { stage: 'saving', frame: 72, total: 72, fps: 70 });
    frame = await frameShowing(ui, /saving\s+DEMO-5/);
    expect(frame).toMatch(/4\/5 items\s+9\d%/);

    store.done(items[4]!, { ms: 1000, bytes: 1, fps: 70 });
    frame = await frameShowing(ui, /done\s+DEMO-5/);
    expect(frame).toMatch(/5\/5 items\s+100%/);
    ui.unmount();
  });

  it('keeps long runs on one screen: recent items, the running ones, and a count of the rest', async () => {
    const store = new ProgressStore(0);
    const items = Array.from({ length: 40 }, (_, i) => item(i + 1, `matrix #${i + 1}`));
    const ui = render(<PregenApp store={store} />);
    store.plan(items);
    publish(store, items.slice(0, 20));
    store.start(items[20]!);
    const frame = await frameShowing(ui, /20\/40 items/);
    expect(frame.split('\n').length).toBeLessThan(20);
    expect(frame).toMatch(/rendering\s+matrix #21/);
    expect(frame).not.toMatch(/matrix #1 /);
    // the line says what it stands for: 14 finished items scrolled off, 16 queued ones (3 more are shown)
    expect(frame).toMatch(/… 30 more \(16 queued, 14 finished earlier\)/);
    expect(frame).toMatch(/20\/40 items/);
    ui.unmount();
  });

  it('all done: no "… 1 more (0 queued)" for an item that was already there (docs/pregen.md)', async () => {
    const store = new ProgressStore(0);
    const items = [item(1, 'DEMO-GLASS'), item(2, 'DEMO-ITX'), item(3, 'matrix #3', 'cached', 'already pregenerated')];
    const ui = render(<PregenApp store={store} />);
    store.plan(items);
    publish(store, items.slice(0, 2));
    store.finish({ interrupted: false });
    const frame = await frameShowing(ui, /all done/);
    expect(frame).toMatch(/done\s+DEMO-GLASS/);
    expect(frame).toMatch(/done\s+DEMO-ITX/);
    // the header counts the item already there; the list of this run's items hides nothing
    expect(frame).toMatch(/1 already there/);
    expect(frame).not.toMatch(/more \(/);
    expect(frame).not.toMatch(/0 queued\)/);
    ui.unmount();
  });

  it('shows no ETA before the first item is finished, then one from a smoothed rate that a burst does not swing (docs/pregen.md)', async () => {
    let now = 0;
    const store = new ProgressStore(0, () => now);
    const items = [1, 2, 3, 4].map((i) => item(i, `DEMO-${i}`));
    const ui = render(<PregenApp store={store} />);
    store.plan(items);
    store.start(items[0]!);
    now = 1_000;
    store.progress(items[0]!, { stage: 'render', frame: 4, total: 72, fps: 4 });
    // a warming-up first item: fast frames now, slow ones later; an ETA from this would be a guess
    now = 1_600;
    store.progress(items[0]!, { stage: 'render', frame: 30, total: 72, fps: 40 });
    let frame = await frameShowing(ui, /DEMO-1 .*41%/);
    expect(frame).toMatch(/ETA --/);

    now = 9_000;
    store.progress(items[0]!, { stage: 'saving', frame: 72, total: 72, fps: 9 });
    frame = await frameShowing(ui, /saving\s+DEMO-1/);
    expect(frame).toMatch(/ETA --/);
    store.done(items[0]!, { ms: 9_000, bytes: 1, fps: 9 });
    // the first item's 72 frames (published) over the 8 s since the first frame: 9 a second;
    // 3 items of 72 left -> 24 s
    frame = await frameShowing(ui, /ETA 24 s/);
    expect(frame).toMatch(/1\/4 items/);

    // a burst: half the next item's frames in 1 s (30.6 frame-equivalents, 3.4x the pace). The
    // smoothed rate moves 3% toward it: 185.4 left at 9.74 a second -> 19 s (the burst's own
    // pace would say 6 s, the average since the first frame 16 s)
    store.start(items[1]!);
    now = 10_000;
    store.progress(items[1]!, { stage: 'render', frame: 36, total: 72, fps: 36 });
    frame = await frameShowing(ui, /DEMO-2 .*50%/);
    expect(frame).toMatch(/ETA 19 s/);
    ui.unmount();
  });
});
