/** CSS colours for gridSettings.color, normalised before the cache key (docs/api.md, "gridSettings.color"). */
import { describe, expect, it } from 'vitest';
import { cacheKey } from '../../src/jobs/cache-key.js';
import { normaliseRequest } from '../../src/model/render-request.js';
import { cssColorToHex } from '../../src/model/css-color.js';
import { renderOptionsSchema, resolveRenderOptions } from '../../src/model/render-options.js';

describe('cssColorToHex', () => {
  it.each([
    ['#6f6f6f', '#6f6f6f'],
    ['#6F6F6F', '#6f6f6f'],
    ['#fff', '#ffffff'],
    ['#FFFA', '#ffffff'],
    ['#11223344', '#112233'],
    ['  white ', '#ffffff'],
    ['RebeccaPurple', '#663399'],
    ['grey', '#808080'],
    ['rgb(111, 111, 111)', '#6f6f6f'],
    ['rgba(255,0,0,0.5)', '#ff0000'],
    ['rgb(255 0 0 / 50%)', '#ff0000'],
    ['rgb(100% 50% 0%)', '#ff8000'],
    ['rgb(300, -5, 12.4)', '#ff000c'],
    ['hsl(120, 100%, 50%)', '#00ff00'],
    ['hsl(0 0% 44%)', '#707070'],
    ['hsla(240deg 100% 50% / 0.3)', '#0000ff'],
    ['hsl(0.5turn 100% 50%)', '#00ffff'],
    ['hsl(-120 100% 50%)', '#0000ff'],
  ])('%s -> %s', (input, want) => {
    expect(cssColorToHex(input)).toBe(want);
  });

  it.each([
    '',
    '#ff',
    '#fffff',
    '#ggg',
    'fff',
    'transparent',
    'currentcolor',
    'notacolour',
    'rgb(1,2)',
    'rgb(1 2 3 4)',
    'rgb(1,2 3)',
    'rgb(a,b,c)',
    'rgba(1,2,3,2)',
    'hsl(1 2 3 / 4 / 5)',
    'lab(50% 40 59)',
    'constructor',
    '__proto__',
  ])('rejects %j', (input) => {
    expect(cssColorToHex(input)).toBeNull();
  });
});

describe('gridSettings.color', () => {
  const key = (color: string) => {
    const parsed = renderOptionsSchema.parse({ gridSettings: { color } });
    return cacheKey(normaliseRequest({ GPU: ['a'] }, null, resolveRenderOptions(parsed)), { a: 1 }, 'r1');
  };

  it('#fff, white, #ffffff, rgb() and hsl() share one cache key', () => {
    const keys = new Set(
      ['#fff', 'white', '#ffffff', '#FFFFFF', 'rgb(255 255 255)', 'rgba(255,255,255,1)', 'hsl(0 0% 100%)', '#ffff'].map(
        key,
      ),
    );
    expect(keys.size).toBe(1);
    expect(key('#fff')).not.toBe(key('#eee'));
    expect(
      resolveRenderOptions(renderOptionsSchema.parse({ gridSettings: { color: 'White' } })).gridSettings.color,
    ).toBe('#ffffff');
  });

  it('rejects what is not a colour, naming the field', () => {
    const r = renderOptionsSchema.safeParse({ gridSettings: { color: 'blurple' } });
    expect(r.success).toBe(false);
    expect(r.error!.issues[0]!.path).toEqual(['gridSettings', 'color']);
    expect(r.error!.issues[0]!.message).toMatch(/expected a CSS colour .*got "blurple"/);
  });
});
