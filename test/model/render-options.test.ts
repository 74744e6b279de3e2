import { describe, expect, it } from 'vitest';
import { renderOptionsSchema, resolveRenderOptions } from '../../src/model/render-options.js';
import { fitSpriteFrame } from '../../src/model/sprite-layout.js';

const resolve = (o: unknown) => resolveRenderOptions(renderOptionsSchema.parse(o));

describe('render options', () => {
  it('fill the documented defaults', () => {
    expect(resolve({})).toMatchObject({
      format: 'video',
      width: 1280,
      height: 720,
      profile: 'cinematic',
      scene: 'studio',
      showBackground: true,
      showGrid: true,
      winterMode: false,
      springMode: false,
      cameraOffsetX: 0,
      cameraZoom: 1,
      frames: 120,
      fps: 30,
      sprite: null,
      gridSettings: { cellThickness: 0.8, sectionThickness: 1.4, color: '#6f6f6f', fadeDistance: 20, renderOrder: -1 },
    });
    expect(resolve({ format: 'sprite' })).toMatchObject({
      width: 512,
      height: 512,
      frames: 72,
      sprite: { columns: 12, rows: 6, frames: 72 },
    });
    expect(resolve({ format: 'sprite', frameQuality: 'high' }).sprite).toMatchObject({ rows: 12, frames: 144 });
  });

  it('turn the grid off by default for flat and fast, unless asked for', () => {
    expect(resolve({ profile: 'flat' }).showGrid).toBe(false);
    expect(resolve({ profile: 'fast' }).showGrid).toBe(false);
    expect(resolve({ profile: 'fast', showGrid: true }).showGrid).toBe(true);
  });

  it('apply seasonal scene and background defaults only when omitted', () => {
    expect(resolve({ springMode: true })).toMatchObject({ scene: 'dawn', showBackground: true });
    expect(resolve({ winterMode: true })).toMatchObject({ scene: 'studio_v2', showBackground: false });
    expect(resolve({ winterMode: true, scene: 'night', showBackground: true })).toMatchObject({
      scene: 'night',
      showBackground: true,
    });
  });

  it('clamp camera fields and reject out-of-range integers', () => {
    expect(resolve({ cameraZoom: 5, cameraOffsetX: -1 })).toMatchObject({ cameraZoom: 2, cameraOffsetX: -0.3 });
    expect(resolve({ cameraZoom: 0.1, cameraOffsetX: 0.9 })).toMatchObject({ cameraZoom: 0.5, cameraOffsetX: 0.3 });
    for (const bad of [
      { width: 255, height: 300 },
      { width: 8193, height: 300 },
      { width: 300.5, height: 300 },
      { gridSettings: { size: 1 } },
      { scene: 'moon' },
    ]) {
      expect(renderOptionsSchema.safeParse(bad).success, JSON.stringify(bad)).toBe(false);
    }
  });

  it('need width with height and exclude winter with spring (rules inside the schema)', () => {
    const issue = (o: unknown) => renderOptionsSchema.safeParse(o).error?.issues[0];
    expect(issue({ width: 300 })).toMatchObject({
      path: ['height'],
      message: 'width and height must be sent together',
    });
    expect(issue({ height: 300 })?.path).toEqual(['width']);
    expect(issue({ winterMode: true, springMode: true })).toMatchObject({
      path: ['springMode'],
      message: /mutually exclusive/,
    });
    expect(issue({ width: 300, height: 300 })).toBeUndefined();
  });

  it('accept a grid fade distance from 0 and draw at least 0.5 (the stage clamps the same)', () => {
    expect(resolve({ gridSettings: { fadeDistance: 0 } }).gridSettings.fadeDistance).toBe(0.5);
    expect(resolve({ gridSettings: { fadeDistance: 7 } }).gridSettings.fadeDistance).toBe(7);
    expect(renderOptionsSchema.safeParse({ gridSettings: { fadeDistance: -1 } }).success).toBe(false);
  });

  it('fit sprite frames within the WebP limit, same aspect ratio', () => {
    expect(resolve({ format: 'sprite', width: 1920, height: 1080 })).toMatchObject({
      width: 1365,
      height: 768,
      sprite: { frame_width: 1365, frame_height: 768 },
    });
    expect(fitSpriteFrame(1365, 1365, 12)).toEqual({ width: 1365, height: 1365 });
    const high = resolve({ format: 'sprite', width: 2000, height: 2000, frameQuality: 'high' });
    expect(high.width * 12).toBeLessThanOrEqual(16383);
    expect(high.height * 12).toBeLessThanOrEqual(16383);
  });
});
