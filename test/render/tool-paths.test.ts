import { describe, expect, it } from 'vitest';
import { findChromium, findFfmpeg, findFfprobe, MissingToolError } from '../../src/render/tool-paths.js';

describe('tool discovery', () => {
  it('finds the system Chromium, ffmpeg and ffprobe', async () => {
    expect((await findChromium({})).source).toMatch(/system|package/);
    expect((await findFfmpeg({})).path).toMatch(/ffmpeg/);
    expect((await findFfprobe({})).path).toMatch(/ffprobe/);
  });

  it('says what is missing and how to fix it', async () => {
    await expect(findChromium({ chromiumPath: '/nonexistent/chromium' })).rejects.toThrow(MissingToolError);
    await expect(findChromium({ chromiumPath: '/nonexistent/chromium' })).rejects.toThrow(
      /Chromium not found at \/nonexistent\/chromium \(from CHROMIUM_PATH\)/,
    );
    await expect(findFfmpeg({ ffmpegPath: '/nonexistent/ffmpeg' })).rejects.toThrow(/ffmpeg not found .*FFMPEG_PATH/);
    await expect(findFfprobe({ ffprobePath: '/nonexistent/ffprobe' })).rejects.toThrow(
      /ffprobe not found .*FFPROBE_PATH/,
    );
  });
});
