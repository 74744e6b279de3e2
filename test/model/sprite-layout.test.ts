import { describe, expect, it } from 'vitest';
import { cellOrigin, layoutFor, sheetSize } from '../../src/model/sprite-layout.js';
import { resolveRenderOptions } from '../../src/model/render-options.js';
import { spriteLayout } from '../../src/model/sprite-layout.js';

describe('sprite layout', () => {
  it('places frames left to right, top to bottom in 12 columns', () => {
    const l = spriteLayout(512, 512, 'standard');
    expect(sheetSize(l)).toEqual({ width: 6144, height: 3072 });
    expect(cellOrigin(l, 0)).toEqual({ left: 0, top: 0 });
    expect(cellOrigin(l, 11)).toEqual({ left: 11 * 512, top: 0 });
    expect(cellOrigin(l, 12)).toEqual({ left: 0, top: 512 });
    expect(cellOrigin(l, 71)).toEqual({ left: 11 * 512, top: 5 * 512 });
    expect(() => cellOrigin(l, 72)).toThrow(RangeError);
  });

  it('keeps 1920x1080 sheets within the WebP limit (1365x768 frames)', () => {
    const o = resolveRenderOptions({ format: 'sprite', width: 1920, height: 1080 });
    expect(o.sprite).toEqual({ columns: 12, rows: 6, frames: 72, frame_width: 1365, frame_height: 768 });
    expect(sheetSize(o.sprite!).width).toBeLessThanOrEqual(16383);
    const high = resolveRenderOptions({ format: 'sprite', width: 2048, height: 2048, frameQuality: 'high' }).sprite!;
    expect(high.rows).toBe(12);
    expect(Math.max(sheetSize(high).width, sheetSize(high).height)).toBeLessThanOrEqual(16383);
  });

  it('lays out short test runs and refuses oversize sheets', () => {
    expect(layoutFor(5, 256, 256)).toEqual({ columns: 5, rows: 1, frames: 5, frame_width: 256, frame_height: 256 });
    expect(() => layoutFor(72, 2000, 256)).toThrow(/WebP/);
  });
});
