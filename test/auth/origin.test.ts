import { describe, expect, it } from 'vitest';
import { isNullOrigin, normaliseOrigin } from '../../src/auth/origin.js';

describe('normaliseOrigin', () => {
  it.each([
    ['https://shop.example', 'https://shop.example'],
    ['https://YourSite.com', 'https://yoursite.com'],
    ['HTTPS://YOURSITE.COM', 'https://yoursite.com'],
    ['https://yoursite.com:443', 'https://yoursite.com'],
    ['http://yoursite.com:80', 'http://yoursite.com'],
    ['https://yoursite.com/', 'https://yoursite.com'],
    ['https://yoursite.com:443/', 'https://yoursite.com'],
    ['https://yoursite.com:8443', 'https://yoursite.com:8443'],
    ['http://localhost:3000', 'http://localhost:3000'],
    ['https://bücher.example', 'https://xn--bcher-kva.example'],
    [' https://shop.example ', 'https://shop.example'],
  ])('%s -> %s', (input, want) => {
    expect(normaliseOrigin(input)).toBe(want);
  });

  it.each([
    'ftp://x.example',
    'https://shop.example/path',
    'https://u:p@shop.example',
    'https://shop.example?q=1',
    'shop.example',
    'null',
    '',
    'https://',
  ])('refuses %j', (input) => {
    expect(normaliseOrigin(input)).toBeNull();
  });

  it('recognises the opaque origin "null"', () => {
    expect(isNullOrigin('null')).toBe(true);
    expect(isNullOrigin(' NULL ')).toBe(true);
    expect(isNullOrigin('https://null.example')).toBe(false);
  });
});
