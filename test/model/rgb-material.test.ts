/**
 * Which material names count as RGB (docs/part-models.md): `RGB`, and the `ARGB` / `RGBW` words of
 * PC-hardware exports, as whole words; `extras.rgb`; not a word inside another (`rgba`, `srgb`).
 */
import { describe, expect, it } from 'vitest';
import { isRgbMaterial } from '../../src/model/part-models.js';

describe('isRgbMaterial', () => {
  it.each([
    'RGB',
    'RGB_ring',
    'fan-rgb',
    'RGB.001',
    'ARGB',
    'ARGB_strip',
    'fan_argb',
    'ARGB.002',
    'RGBW',
    'led_RGBW',
    'rgbw-bar',
    'ARGBW_ring',
  ])('%s is RGB', (name) => {
    expect(isRgbMaterial(name, undefined)).toBe(true);
  });

  it.each(['shroud', 'RGBA_texture', 'srgb_albedo', 'margb', 'rgbx', 'hargb_panel', ''])('%s is not', (name) => {
    expect(isRgbMaterial(name, undefined)).toBe(false);
  });

  it('extras.rgb true counts whatever the name', () => {
    expect(isRgbMaterial('ring', { rgb: true })).toBe(true);
    expect(isRgbMaterial('ring', { rgb: 'yes' })).toBe(false);
  });
});
