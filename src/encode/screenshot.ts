/** Writes the hero-angle still in the requested format. */
import sharp from 'sharp';

export type ScreenshotFormat = 'webp' | 'png';

/** Re-encodes a captured frame (lossless capture) as WebP or PNG at `file`; returns bytes written. */
export async function writeScreenshot(frame: Buffer, format: ScreenshotFormat, file: string): Promise<number> {
  const img = sharp(frame);
  const out = format === 'png' ? img.png({ compressionLevel: 6 }) : img.webp({ quality: 92, alphaQuality: 100 });
  const info = await out.toFile(file);
  return info.size;
}
