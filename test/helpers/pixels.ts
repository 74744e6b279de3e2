/** Pixel comparisons for render tests. */
import sharp from 'sharp';

/** Decoded RGB pixels of an image. */
export async function rgb(image: Buffer | string): Promise<{ data: Buffer; width: number; height: number }> {
  const { data, info } = await sharp(image).removeAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data, width: info.width, height: info.height };
}

/** Fraction of pixels differing by more than `tolerance` in any channel. */
export async function diffFraction(a: Buffer, b: Buffer, tolerance = 8): Promise<number> {
  const [x, y] = await Promise.all([rgb(a), rgb(b)]);
  if (x.width !== y.width || x.height !== y.height) return 1;
  let differ = 0;
  for (let i = 0; i < x.data.length; i += 3) {
    if (
      Math.abs(x.data[i]! - y.data[i]!) > tolerance ||
      Math.abs(x.data[i + 1]! - y.data[i + 1]!) > tolerance ||
      Math.abs(x.data[i + 2]! - y.data[i + 2]!) > tolerance
    )
      differ++;
  }
  return differ / (x.data.length / 3);
}

/** Pixels of a transparent render that are not background (alpha > 0). */
export async function opaquePixels(png: Buffer): Promise<number> {
  const { data, info } = await sharp(png).ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  let n = 0;
  for (let i = 3; i < data.length; i += info.channels) if (data[i]! > 16) n++;
  return n;
}
