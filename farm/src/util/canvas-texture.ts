/**
 * Text and logos drawn at run time on a canvas (system fonts inside Chromium): GPU names,
 * board silkscreen, PSU labels, pump logos. Nothing is downloaded. In Node (model tests)
 * there is no canvas: the helpers return null and the models keep the same meshes with a
 * plain material, so geometry and bounds are the same in both places.
 */
import * as THREE from 'three';

export type Ctx2D = CanvasRenderingContext2D | OffscreenCanvasRenderingContext2D;

/** The fonts Chromium has on a bare Debian worker, best first. */
export const SANS = '"Liberation Sans", "DejaVu Sans", Arial, sans-serif';

function makeCanvas(width: number, height: number): { canvas: OffscreenCanvas | HTMLCanvasElement; ctx: Ctx2D } | null {
  if (typeof OffscreenCanvas !== 'undefined') {
    const canvas = new OffscreenCanvas(width, height);
    const ctx = canvas.getContext('2d');
    return ctx ? { canvas, ctx } : null;
  }
  if (typeof document !== 'undefined') {
    const canvas = document.createElement('canvas');
    canvas.width = width;
    canvas.height = height;
    const ctx = canvas.getContext('2d');
    return ctx ? { canvas, ctx } : null;
  }
  return null;
}

/** A texture of `width` x `height` px drawn by `draw`, or null where there is no canvas. */
export function canvasTexture(
  width: number,
  height: number,
  draw: (ctx: Ctx2D, w: number, h: number) => void,
): THREE.Texture | null {
  const made = makeCanvas(width, height);
  if (!made) return null;
  draw(made.ctx, width, height);
  const t = new THREE.CanvasTexture(made.canvas as OffscreenCanvas);
  t.colorSpace = THREE.SRGBColorSpace;
  t.anisotropy = 4; // labels are mostly seen at an angle through the window
  t.generateMipmaps = true;
  t.minFilter = THREE.LinearMipmapLinearFilter;
  t.needsUpdate = true;
  return t;
}

/** Text fitted into a box: shrinks the font until it fits `maxWidth`. */
export function fitText(
  ctx: Ctx2D,
  text: string,
  x: number,
  y: number,
  maxWidth: number,
  px: number,
  weight = 'bold',
  style = '',
): void {
  let size = px;
  for (; size > 6; size -= 1) {
    ctx.font = `${style} ${weight} ${size}px ${SANS}`.trim();
    if (ctx.measureText(text).width <= maxWidth) break;
  }
  ctx.fillText(text, x, y);
}
