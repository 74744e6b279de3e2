import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { resolveRenderOptions } from '../../src/model/render-options.js';
import { demoStageBuild } from '../../src/catalog/demo-catalog.js';
import { useTestEngine } from '../helpers/engine.js';
import { useTempDir } from '../helpers/temp-dir.js';

const engine = useTestEngine();
const dir = useTempDir('zoom-test-');

/** Standard deviation of the luma of one frame of a sprite sheet. */
function frameStdDev(
  data: Buffer,
  sheetWidth: number,
  channels: number,
  x0: number,
  y0: number,
  w: number,
  h: number,
): number {
  let sum = 0;
  let sq = 0;
  for (let y = y0; y < y0 + h; y++) {
    for (let x = x0; x < x0 + w; x++) {
      const o = (y * sheetWidth + x) * channels;
      const l = 0.2126 * data[o]! + 0.7152 * data[o + 1]! + 0.0722 * data[o + 2]!;
      sum += l;
      sq += l * l;
    }
  }
  const n = w * h;
  return Math.sqrt(Math.max(0, sq / n - (sum / n) ** 2));
}

describe('cameraZoom 0.5', () => {
  it('no frame of a DEMO-GLASS sprite is near-uniform', async () => {
    const options = resolveRenderOptions({
      format: 'sprite',
      width: 256,
      height: 256,
      profile: 'fast',
      cameraZoom: 0.5,
    });
    const r = await engine.render({
      build: demoStageBuild('DEMO-GLASS'),
      options,
      outDir: dir(),
      outputs: { sprite: true },
    });
    const sheet = r.files.find((f) => f.kind === 'sprite')!;
    const { data, info } = await sharp(sheet.path).raw().toBuffer({ resolveWithObject: true });
    const layout = r.sprite!;
    const deviations: number[] = [];
    for (let i = 0; i < layout.frames; i++) {
      const x = (i % layout.columns) * layout.frame_width;
      const y = Math.floor(i / layout.columns) * layout.frame_height;
      deviations.push(frameStdDev(data, info.width, info.channels, x, y, layout.frame_width, layout.frame_height));
    }
    expect(deviations).toHaveLength(72);
    const worst = Math.min(...deviations);
    expect(worst, `frame ${deviations.indexOf(worst)}`).toBeGreaterThan(4);
  });
});
