import { describe, expect, it } from 'vitest';
import { h264Bitrate, h264Codecs, h264Level, webcodecsReproducible } from '../../src/encode/h264-config.js';

describe('h264 config', () => {
  it('picks the lowest level that holds the size and rate', () => {
    expect(h264Level(256, 256, 30)).toBe(0x1e); // 3.0
    expect(h264Level(1280, 720, 30)).toBe(0x1f); // 3.1
    expect(h264Level(1920, 1080, 30)).toBe(0x28); // 4.0
    expect(h264Level(4096, 2160, 30)).toBe(0x34); // 5.2: 5.1 allows the size, not 30 fps of it
    expect(h264Level(8192, 8192, 30)).toBeNull(); // beyond H.264: x264 fallback
  });

  it('lists High, Main and Constrained Baseline codec strings', () => {
    expect(h264Codecs(1920, 1080, 30)).toEqual(['avc1.640028', 'avc1.4d0028', 'avc1.42e028']);
    expect(h264Codecs(8192, 8192, 30)).toEqual([]);
  });

  it('scales the bitrate with the pixel rate, with a floor', () => {
    expect(h264Bitrate(1920, 1080, 30)).toBeGreaterThan(h264Bitrate(1280, 720, 30));
    expect(h264Bitrate(256, 256, 30)).toBe(1_000_000);
  });

  it('knows where Chromium encodes H.264 single-threaded (reproducible bytes)', () => {
    expect(webcodecsReproducible(256, 256)).toBe(true);
    expect(webcodecsReproducible(638, 480)).toBe(true);
    expect(webcodecsReproducible(640, 480)).toBe(false);
    expect(webcodecsReproducible(1280, 720)).toBe(false);
  });
});
