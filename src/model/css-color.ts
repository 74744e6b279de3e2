/**
 * CSS colours as front-end code sends them, reduced to one canonical form so that equal
 * colours share a render cache key: `#fff`, `white`, `#ffffff`, `rgb(255 255 255)` and
 * `hsl(0 0% 100%)` all become `#ffffff`.
 *
 * Accepted: `#rgb`, `#rgba`, `#rrggbb`, `#rrggbbaa`; `rgb()`/`rgba()` and `hsl()`/`hsla()` in the
 * comma and the space (`/ alpha`) syntax, with numbers or percentages, hue in deg (default),
 * rad, grad or turn; the 148 CSS named colours. Case and surrounding spaces do not matter.
 * Canonical form: `#rrggbb`, lower case. An alpha is checked and then dropped: the colours this
 * is used for (grid lines) are drawn opaque. `transparent`, `currentcolor`, `none` and the
 * other CSS colour spaces are not accepted.
 */

/** The CSS named colours (CSS Color Module Level 4, 148 names). */
const NAMED: Record<string, string> = {
  aliceblue: 'f0f8ff',
  antiquewhite: 'faebd7',
  aqua: '00ffff',
  aquamarine: '7fffd4',
  azure: 'f0ffff',
  beige: 'f5f5dc',
  bisque: 'ffe4c4',
  black: '000000',
  blanchedalmond: 'ffebcd',
  blue: '0000ff',
  blueviolet: '8a2be2',
  brown: 'a52a2a',
  burlywood: 'deb887',
  cadetblue: '5f9ea0',
  chartreuse: '7fff00',
  chocolate: 'd2691e',
  coral: 'ff7f50',
  cornflowerblue: '6495ed',
  cornsilk: 'fff8dc',
  crimson: 'dc143c',
  cyan: '00ffff',
  darkblue: '00008b',
  darkcyan: '008b8b',
  darkgoldenrod: 'b8860b',
  darkgray: 'a9a9a9',
  darkgreen: '006400',
  darkgrey: 'a9a9a9',
  darkkhaki: 'bdb76b',
  darkmagenta: '8b008b',
  darkolivegreen: '556b2f',
  darkorange: 'ff8c00',
  darkorchid: '9932cc',
  darkred: '8b0000',
  darksalmon: 'e9967a',
  darkseagreen: '8fbc8f',
  darkslateblue: '483d8b',
  darkslategray: '2f4f4f',
  darkslategrey: '2f4f4f',
  darkturquoise: '00ced1',
  darkviolet: '9400d3',
  deeppink: 'ff1493',
  deepskyblue: '00bfff',
  dimgray: '696969',
  dimgrey: '696969',
  dodgerblue: '1e90ff',
  firebrick: 'b22222',
  floralwhite: 'fffaf0',
  forestgreen: '228b22',
  fuchsia: 'ff00ff',
  gainsboro: 'dcdcdc',
  ghostwhite: 'f8f8ff',
  gold: 'ffd700',
  goldenrod: 'daa520',
  gray: '808080',
  green: '008000',
  greenyellow: 'adff2f',
  grey: '808080',
  honeydew: 'f0fff0',
  hotpink: 'ff69b4',
  indianred: 'cd5c5c',
  indigo: '4b0082',
  ivory: 'fffff0',
  khaki: 'f0e68c',
  lavender: 'e6e6fa',
  lavenderblush: 'fff0f5',
  lawngreen: '7cfc00',
  lemonchiffon: 'fffacd',
  lightblue: 'add8e6',
  lightcoral: 'f08080',
  lightcyan: 'e0ffff',
  lightgoldenrodyellow: 'fafad2',
  lightgray: 'd3d3d3',
  lightgreen: '90ee90',
  lightgrey: 'd3d3d3',
  lightpink: 'ffb6c1',
  lightsalmon: 'ffa07a',
  lightseagreen: '20b2aa',
  lightskyblue: '87cefa',
  lightslategray: '778899',
  lightslategrey: '778899',
  lightsteelblue: 'b0c4de',
  lightyellow: 'ffffe0',
  lime: '00ff00',
  limegreen: '32cd32',
  linen: 'faf0e6',
  magenta: 'ff00ff',
  maroon: '800000',
  mediumaquamarine: '66cdaa',
  mediumblue: '0000cd',
  mediumorchid: 'ba55d3',
  mediumpurple: '9370db',
  mediumseagreen: '3cb371',
  mediumslateblue: '7b68ee',
  mediumspringgreen: '00fa9a',
  mediumturquoise: '48d1cc',
  mediumvioletred: 'c71585',
  midnightblue: '191970',
  mintcream: 'f5fffa',
  mistyrose: 'ffe4e1',
  moccasin: 'ffe4b5',
  navajowhite: 'ffdead',
  navy: '000080',
  oldlace: 'fdf5e6',
  olive: '808000',
  olivedrab: '6b8e23',
  orange: 'ffa500',
  orangered: 'ff4500',
  orchid: 'da70d6',
  palegoldenrod: 'eee8aa',
  palegreen: '98fb98',
  paleturquoise: 'afeeee',
  palevioletred: 'db7093',
  papayawhip: 'ffefd5',
  peachpuff: 'ffdab9',
  peru: 'cd853f',
  pink: 'ffc0cb',
  plum: 'dda0dd',
  powderblue: 'b0e0e6',
  purple: '800080',
  rebeccapurple: '663399',
  red: 'ff0000',
  rosybrown: 'bc8f8f',
  royalblue: '4169e1',
  saddlebrown: '8b4513',
  salmon: 'fa8072',
  sandybrown: 'f4a460',
  seagreen: '2e8b57',
  seashell: 'fff5ee',
  sienna: 'a0522d',
  silver: 'c0c0c0',
  skyblue: '87ceeb',
  slateblue: '6a5acd',
  slategray: '708090',
  slategrey: '708090',
  snow: 'fffafa',
  springgreen: '00ff7f',
  steelblue: '4682b4',
  tan: 'd2b48c',
  teal: '008080',
  thistle: 'd8bfd8',
  tomato: 'ff6347',
  turquoise: '40e0d0',
  violet: 'ee82ee',
  wheat: 'f5deb3',
  white: 'ffffff',
  whitesmoke: 'f5f5f5',
  yellow: 'ffff00',
  yellowgreen: '9acd32',
};

const NUMBER = /^[+-]?(\d+\.?\d*|\.\d+)(e[+-]?\d+)?$/;

const hex2 = (n: number) =>
  Math.round(Math.min(255, Math.max(0, n)))
    .toString(16)
    .padStart(2, '0');

/** A number, or a percentage as a fraction of `percentOf`; null when it is neither. */
function value(token: string, percentOf: number): number | null {
  const percent = token.endsWith('%');
  const text = percent ? token.slice(0, -1) : token;
  if (!NUMBER.test(text)) return null;
  const n = Number(text);
  if (!Number.isFinite(n)) return null;
  return percent ? (n / 100) * percentOf : n;
}

/** A hue in degrees (`120`, `120deg`, `2.1rad`, `133grad`, `0.33turn`), or null. */
function hue(token: string): number | null {
  const m = /^(.*?)(deg|rad|grad|turn)?$/.exec(token)!;
  const n = m[1] !== undefined && NUMBER.test(m[1]) ? Number(m[1]) : NaN;
  if (!Number.isFinite(n)) return null;
  const unit = m[2] ?? 'deg';
  return unit === 'rad' ? (n * 180) / Math.PI : unit === 'grad' ? n * 0.9 : unit === 'turn' ? n * 360 : n;
}

/** The arguments of `rgb(...)`/`hsl(...)`: three components and an optional alpha, or null. */
function args(body: string): { parts: string[]; alpha: string | null } | null {
  const text = body.trim();
  if (text.includes(',')) {
    // legacy syntax: r, g, b[, a]
    const parts = text.split(',').map((s) => s.trim());
    if (parts.length !== 3 && parts.length !== 4) return null;
    if (parts.some((p) => p === '' || /\s/.test(p))) return null;
    return { parts: parts.slice(0, 3), alpha: parts[3] ?? null };
  }
  const [main, alpha, extra] = text.split('/').map((s) => s.trim());
  if (extra !== undefined || main === undefined) return null;
  const parts = main.split(/\s+/).filter(Boolean);
  if (parts.length !== 3) return null;
  if (alpha !== undefined && (alpha === '' || /\s/.test(alpha))) return null;
  return { parts, alpha: alpha ?? null };
}

/** HSL (degrees, fractions) to RGB 0..255: the CSS Color 4 reference algorithm. */
function hslToRgb(h: number, s: number, l: number): [number, number, number] {
  const hh = ((h % 360) + 360) % 360;
  const f = (n: number) => {
    const k = (n + hh / 30) % 12;
    const a = s * Math.min(l, 1 - l);
    return l - a * Math.max(-1, Math.min(k - 3, 9 - k, 1));
  };
  return [f(0) * 255, f(8) * 255, f(4) * 255];
}

/** `input` as `#rrggbb` (lower case), or null when it is not a CSS colour this accepts. */
export function cssColorToHex(input: string): string | null {
  const text = input.trim().toLowerCase();
  const hex = /^#([0-9a-f]{3,4}|[0-9a-f]{6}|[0-9a-f]{8})$/.exec(text);
  if (hex) {
    const h = hex[1]!;
    return h.length <= 4 ? `#${h[0]}${h[0]}${h[1]}${h[1]}${h[2]}${h[2]}` : `#${h.slice(0, 6)}`;
  }
  if (Object.hasOwn(NAMED, text)) return `#${NAMED[text]}`;
  const fn = /^(rgba?|hsla?)\((.*)\)$/.exec(text);
  if (!fn) return null;
  const a = args(fn[2]!);
  if (!a) return null;
  if (a.alpha !== null) {
    const alpha = value(a.alpha, 1);
    if (alpha === null || alpha < 0 || alpha > 1) return null;
  }
  let rgb: [number, number, number];
  if (fn[1]!.startsWith('rgb')) {
    const c = a.parts.map((p) => value(p, 255));
    if (c.some((v) => v === null)) return null;
    rgb = c as [number, number, number];
  } else {
    const h = hue(a.parts[0]!);
    // saturation and lightness are percentages (CSS Color 4 also allows bare numbers, 0..100)
    const [s, l] = a.parts.slice(1).map((p) => value(p.endsWith('%') ? p : `${p}%`, 1));
    if (h === null || s === null || l === null || s === undefined || l === undefined) return null;
    rgb = hslToRgb(h, Math.min(1, Math.max(0, s)), Math.min(1, Math.max(0, l)));
  }
  return `#${rgb.map(hex2).join('')}`;
}
