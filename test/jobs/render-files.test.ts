/**
 * The store names of render files and chunk pieces (src/jobs/render-files.ts): a whole render
 * and an assembled one must store a render under the same keys, and a chunk's pieces must be
 * keyed apart from every other chunk's and from the render's own files.
 */
import { describe, expect, it } from 'vitest';
import { chunkPieceKeys, renderFileKey } from '../../src/jobs/render-files.js';
import { renderCacheKeyOf } from '../../src/storage/artifact-key.js';

const KEY = 'ab12cd34ef';

describe('renderFileKey', () => {
  it('names each kind of render file once, under the render cache key', () => {
    const keys = (['video', 'sprite', 'screenshot'] as const).map((k) => renderFileKey(KEY, k));
    expect(keys).toEqual([
      `renders/ab/${KEY}/turntable.mp4`,
      `renders/ab/${KEY}/sprite.webp`,
      `renders/ab/${KEY}/hero.webp`,
    ]);
    for (const k of keys) expect(renderCacheKeyOf(k)).toBe(KEY);
  });

  it('keeps the screenshot format of a whole render (the assemble step stores WebP)', () => {
    expect(renderFileKey(KEY, 'screenshot', '.png')).toBe(`renders/ab/${KEY}/hero.png`);
    // the extension only names the still: a video or sprite keeps its one name
    expect(renderFileKey(KEY, 'video', '.mp4')).toBe(renderFileKey(KEY, 'video'));
  });
});

describe('chunkPieceKeys', () => {
  it('keys a video chunk by segment and still, a sprite chunk by rows and still', () => {
    const video = chunkPieceKeys({ cache_key: KEY, format: 'video' }, 'plan-1', 2);
    expect(Object.keys(video).sort()).toEqual(['h264', 'screenshot']);
    expect(video.h264).toBe(`chunks/${KEY}/plan-1/2/video.h264`);
    const sprite = chunkPieceKeys({ cache_key: KEY, format: 'sprite' }, 'plan-1', 2);
    expect(Object.keys(sprite).sort()).toEqual(['rows', 'screenshot']);
  });

  it('keeps the pieces of each chunk and plan apart, and out of the render files', () => {
    const all = [
      chunkPieceKeys({ cache_key: KEY, format: 'video' }, 'p', 0),
      chunkPieceKeys({ cache_key: KEY, format: 'video' }, 'p', 1),
      chunkPieceKeys({ cache_key: KEY, format: 'video' }, 'q', 0),
    ].flatMap((k) => Object.values(k));
    expect(new Set(all).size).toBe(all.length);
    for (const k of all) expect(renderCacheKeyOf(k!)).toBeNull();
  });
});
