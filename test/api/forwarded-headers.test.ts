/**
 * Behind a TLS-terminating reverse proxy, returned URLs use the scheme and host the browser
 * used (X-Forwarded-Proto / X-Forwarded-Host), when the proxy is trusted (TRUST_PROXY).
 */
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.js';
import { useTestApi } from '../helpers/api.js';

const proxied = {
  'x-forwarded-proto': 'https',
  'x-forwarded-host': 'shop.example.com',
  'x-forwarded-for': '203.0.113.9',
};

describe('forwarded headers', () => {
  describe('default TRUST_PROXY (loopback and private ranges): the test client is on loopback', () => {
    const api = useTestApi();

    it('URLs follow X-Forwarded-Proto and X-Forwarded-Host', async () => {
      const build = await api.call('GET', '/build/DEMO-GLASS', { token: api.key, headers: proxied });
      expect(build.status).toBe(200);
      const images = Object.values(build.json.partDetails as Record<string, { image: string }[]>)
        .flat()
        .map((p) => p.image);
      expect(images.length).toBeGreaterThan(0);
      for (const url of images) expect(url).toMatch(/^https:\/\/shop\.example\.com\/assets\/parts\//);
      const list = await api.call('POST', '/parts', {
        token: api.key,
        body: { ids: [images[0].split('/').pop()] },
        headers: proxied,
      });
      expect(list.json.parts[0].image).toMatch(/^https:\/\/shop\.example\.com\//);
    });

    it('X-Forwarded-Proto alone keeps the Host header', async () => {
      const r = await api.call('POST', '/parts', {
        token: api.key,
        body: { ids: ['nosuch', 'nosuch2'] },
        headers: { 'x-forwarded-proto': 'https' },
      });
      expect(r.status).toBe(200);
      const build = await api.call('GET', '/build/DEMO-GLASS', {
        token: api.key,
        headers: { 'x-forwarded-proto': 'https' },
      });
      const url = Object.values(build.json.partDetails as Record<string, { image: string }[]>).flat()[0].image;
      expect(url.startsWith(`https://${new URL(api.url).host}/`)).toBe(true);
    });

    it('a forwarded host that is not a host name is ignored', async () => {
      const build = await api.call('GET', '/build/DEMO-GLASS', {
        token: api.key,
        headers: { 'x-forwarded-proto': 'javascript', 'x-forwarded-host': 'evil.example/"><script>' },
      });
      const url = Object.values(build.json.partDetails as Record<string, { image: string }[]>).flat()[0].image;
      expect(url.startsWith(`${api.url}/`)).toBe(true);
    });
  });

  describe('TRUST_PROXY=false', () => {
    const api = useTestApi({ trustProxy: 'false' });

    it('forwarded headers are ignored', async () => {
      const build = await api.call('GET', '/build/DEMO-GLASS', { token: api.key, headers: proxied });
      const url = Object.values(build.json.partDetails as Record<string, { image: string }[]>).flat()[0].image;
      expect(url.startsWith(`${api.url}/`)).toBe(true);
    });
  });

  it('TRUST_PROXY parses named ranges, addresses, CIDRs, hop counts and booleans, and names bad values', () => {
    const parse = (v: string) => loadConfig({}, { TRUST_PROXY: v }).trustProxy;
    expect(loadConfig({}, {}).trustProxy).toEqual(['loopback', 'linklocal', 'uniquelocal']);
    expect(parse('10.0.0.1, 192.168.0.0/16 ,loopback')).toEqual(['10.0.0.1', '192.168.0.0/16', 'loopback']);
    expect(parse('::1')).toEqual(['::1']);
    expect(parse('false')).toBe(false);
    expect(parse('true')).toBe(true);
    expect(parse('2')).toBe(2);
    expect(() => parse('10.0.0.300')).toThrow(/trustProxy \(env TRUST_PROXY\).*10\.0\.0\.300/);
    expect(() => parse('10.0.0.0/33')).toThrow(/TRUST_PROXY/);
  });
});
