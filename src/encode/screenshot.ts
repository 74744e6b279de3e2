/** Writes the hero-angle still in the requested format. */
import sharp, { type Sharp } from 'sharp';

export type ScreenshotFormat = 'webp' | 'png';

/**
 * Writes a still from raw RGBA as gl.readPixels returns it (rows bottom-up) for an opaque
 * frame: the hero frame read during the turn, which saves rendering it again and a PNG round trip.
 */
export async function writeScreenshotRaw(
  rgba: Uint8Array,
  width: number,
  height: number,
  format: ScreenshotFormat,
  file: string,
): Promise<number> {
  if (rgba.length !== width * height * 4)
    throw new Error(`still has ${rgba.length} bytes, expected ${width}x${height} RGBA`);
  const info = await encoded(sharp(rgba, { raw: { width, height, channels: 4 } }).flip(), format).toFile(file);
  return info.size;
}

/** Re-encodes a captured frame (lossless capture) as WebP or PNG at `file`; returns bytes written. */
export async function writeScreenshot(frame: Buffer, format: ScreenshotFormat, file: string): Promise<number> {
  const info = await encoded(sharp(frame), format).toFile(file);
  return info.size;
}

/** The same encode as writeScreenshot, in memory (batched thumbnails store the bytes directly). */
export async function encodeScreenshot(frame: Buffer, format: ScreenshotFormat): Promise<Buffer> {
  return encoded(sharp(frame), format).toBuffer();
}

/** One set of encoder settings for every still. */
function encoded(img: Sharp, format: ScreenshotFormat): Sharp {
  return format === 'png' ? img.png({ compressionLevel: 6 }) : img.webp({ quality: 92, alphaQuality: 100 });
}
