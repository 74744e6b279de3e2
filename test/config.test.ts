import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, baseUrl, loadConfig } from '../src/config.js';

describe('config', () => {
  it('has defaults', () => {
    const c = loadConfig({}, {});
    expect(c.port).toBe(8080);
    expect(c.dataDir).toBe(path.resolve('.render-farm'));
    expect(c.databaseUrl).toBeUndefined();
    expect(c.glBackend).toBe('auto');
    expect(Object.isFrozen(c)).toBe(true);
  });

  it('env overrides defaults and flags override env', () => {
    const env = { PORT: '9000', RENDER_FARM_DATA_DIR: '/tmp/a', LOG_LEVEL: 'warn' };
    expect(loadConfig({}, env).port).toBe(9000);
    const c = loadConfig({ port: '9100', dataDir: '/tmp/b' }, env);
    expect(c.port).toBe(9100);
    expect(c.dataDir).toBe('/tmp/b');
    expect(c.logLevel).toBe('warn');
  });

  it('treats empty env values as unset', () => {
    expect(loadConfig({}, { DATABASE_URL: '' }).databaseUrl).toBeUndefined();
  });

  it('names each bad value and where it came from', () => {
    expect(() => loadConfig({}, { PORT: 'abc' })).toThrow(ConfigError);
    expect(() => loadConfig({}, { PORT: 'abc' })).toThrow(/port \(env PORT\)/);
    expect(() => loadConfig({ databaseUrl: 'mysql://x' }, {})).toThrow(/databaseUrl \(flag --database-url\): must be a postgres/);
    expect(() => loadConfig({}, { RENDER_FARM_SIGNING_SECRET: 'short' })).toThrow(/signingSecret.*32/);
    expect(() => loadConfig({}, { RENDER_FARM_GL: 'vulkan' })).toThrow(/glBackend/);
  });

  it('builds the public base URL', () => {
    expect(baseUrl(loadConfig({}, {}), 1234)).toBe('http://127.0.0.1:1234');
    expect(baseUrl(loadConfig({ publicBaseUrl: 'https://r.example/api/' }, {}))).toBe('https://r.example/api');
  });
});
