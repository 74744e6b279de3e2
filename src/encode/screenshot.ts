/** Writes the hero-angle still in the requested format. */
import sharp from 'sharp';

export type ScreenshotFormat = 'webp' | 'png';

/**
 * Writes a still from raw RGBA as gl.readPixels returns it (rows bottom-up) for an opaque
 * frame: the hero frame read during the turn, which saves rendering it again and a PNG round trip.
 */
export async function writeScreenshotRaw(rgba: Uint8Array, width: number, height: number, format: ScreenshotFormat, file: string): Promise<number> {
  if (rgba.length !== width * height * 4) throw new Error(`still has ${rgba.length} bytes, expected ${width}x${height} RGBA`);
  const img = sharp(rgba, { raw: { width, height, channels: 4 } }).flip();
  const out = format === 'png' ? img.png({ compressionLevel: 6 }) : img.webp({ quality: 92, alphaQuality: 100 });
  const info = await out.toFile(file);
  return info.size;
}

/** Re-encodes a captured frame (lossless capture) as WebP or PNG at `file`; returns bytes written. */
export async function writeScreenshot(frame: Buffer, format: ScreenshotFormat, file: string): Promise<number> {
  const img = sharp(frame);
  const out = format === 'png' ? img.png({ compressionLevel: 6 }) : img.webp({ quality: 92, alphaQuality: 100 });
  const info = await out.toFile(file);
  return info.size;
}
