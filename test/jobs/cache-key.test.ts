import { describe, expect, it } from 'vitest';
import { cacheKey, canonicalJson } from '../../src/jobs/cache-key.js';
import { normaliseRequest } from '../../src/model/render-request.js';
import { renderOptionsSchema, resolveRenderOptions } from '../../src/model/render-options.js';

const opts = (o: unknown) => resolveRenderOptions(renderOptionsSchema.parse(o));
const key = (
  parts: Record<string, string[]>,
  o: unknown,
  state: any = null,
  versions: Record<string, number> = { a: 1, b: 1 },
  renderer = 'r1',
) => cacheKey(normaliseRequest(parts, state, opts(o)), versions, renderer);

describe('cache key', () => {
  it('ignores part order, category order and key order', () => {
    expect(key({ GPU: ['a'], RAM: ['b', 'c'] }, {})).toBe(key({ RAM: ['c', 'b'], GPU: ['a'] }, {}));
    expect(canonicalJson({ b: 1, a: { d: 2, c: [3, { f: 1, e: 2 }] } })).toBe(
      '{"a":{"c":[3,{"e":2,"f":1}],"d":2},"b":1}',
    );
  });

  it('equals for explicit defaults and clamped values', () => {
    expect(key({ GPU: ['a'] }, {})).toBe(
      key(
        { GPU: ['a'] },
        { format: 'video', profile: 'cinematic', width: 1280, height: 720, showGrid: true, scene: 'studio' },
      ),
    );
    expect(key({ GPU: ['a'] }, { cameraZoom: 9 })).toBe(key({ GPU: ['a'] }, { cameraZoom: 2 }));
    // frameQuality does not change a video
    expect(key({ GPU: ['a'] }, { frameQuality: 'high' })).toBe(key({ GPU: ['a'] }, {}));
    // a sprite request that WebP forces to the same frame size renders the same pixels
    expect(key({ GPU: ['a'] }, { format: 'sprite', width: 1920, height: 1080 })).toBe(
      key({ GPU: ['a'] }, { format: 'sprite', width: 1365, height: 768 }),
    );
  });

  it('differs for anything that changes pixels', () => {
    const base = key({ GPU: ['a'] }, {});
    for (const variant of [
      key({ GPU: ['b'] }, {}),
      key({ GPU: ['a', 'a'] }, {}),
      key({ GPU: ['a'] }, { format: 'sprite' }),
      key({ GPU: ['a'] }, { cameraZoom: 1.5 }),
      key({ GPU: ['a'] }, { winterMode: true }),
      key({ GPU: ['a'] }, { gridSettings: { color: '#ffffff' } }),
      key({ GPU: ['a'] }, {}, { rgb: { color: '#ff0000', mode: 'static' } }),
      key({ GPU: ['a'] }, {}, null, { a: 2, b: 1 }),
      key({ GPU: ['a'] }, {}, null, undefined, 'r2'),
    ]) {
      expect(variant).not.toBe(base);
    }
  });
});
