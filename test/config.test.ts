import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ConfigError, baseUrl, describeSetting, loadConfig } from '../src/config.js';

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

  it("reads the sweeper's dead-worker bound, never below twice the heartbeat", () => {
    expect(loadConfig({}, {}).workerDeadAfterSeconds).toBe(30);
    expect(loadConfig({}, { RENDER_FARM_WORKER_DEAD_AFTER: '15' }).workerDeadAfterSeconds).toBe(15);
    expect(() => loadConfig({}, { RENDER_FARM_WORKER_DEAD_AFTER: '5' })).toThrow(
      /workerDeadAfterSeconds \(env RENDER_FARM_WORKER_DEAD_AFTER\)/,
    );
  });

  it('treats empty env values as unset', () => {
    expect(loadConfig({}, { DATABASE_URL: '' }).databaseUrl).toBeUndefined();
  });

  it('names each bad value and where it came from', () => {
    expect(() => loadConfig({}, { PORT: 'abc' })).toThrow(ConfigError);
    expect(() => loadConfig({}, { PORT: 'abc' })).toThrow(/port \(env PORT\)/);
    expect(() => loadConfig({ databaseUrl: 'mysql://x' }, {})).toThrow(
      /databaseUrl \(flag --database-url\): must be a postgres/,
    );
    expect(() => loadConfig({}, { RENDER_FARM_SIGNING_SECRET: 'short' })).toThrow(/signingSecret.*32/);
    expect(() => loadConfig({}, { RENDER_FARM_GL: 'vulkan' })).toThrow(/glBackend/);
  });

  it('names the flag that was typed and the bad value (docs/reference/configuration.md)', () => {
    // --pg-port is the flag; --embedded-pg-port does not exist
    expect(() => loadConfig({ embeddedPgPort: 'abc' }, {})).toThrow(
      'embeddedPgPort (flag --pg-port): expected a number, got "abc"',
    );
    expect(() => loadConfig({}, { RENDER_FARM_PG_PORT: '70000' })).toThrow(
      'embeddedPgPort (env RENDER_FARM_PG_PORT): must be at most 65535, got "70000"',
    );
    expect(() => loadConfig({ workerConcurrency: '0' }, {})).toThrow(
      'workerConcurrency (flag --concurrency): must be at least 1, got "0"',
    );
    expect(() => loadConfig({ glBackend: 'vulkan' }, {})).toThrow(
      'glBackend (flag --gl): expected one of auto, gpu, egl, swiftshader, got "vulkan"',
    );
    expect(() => loadConfig({}, { RENDER_FARM_SEED_DEMO: 'maybe' })).toThrow(
      /seedDemo \(env RENDER_FARM_SEED_DEMO\): expected true or false.*got "maybe"/,
    );
    // secrets and passwords never appear
    expect(() => loadConfig({}, { RENDER_FARM_SIGNING_SECRET: 'hunter2' })).toThrow(
      /signingSecret \(env RENDER_FARM_SIGNING_SECRET\): must be at least 32 characters \(value not shown\)$/,
    );
    expect(() => loadConfig({ databaseUrl: 'mysql://me:hunter2@db/x' }, {})).toThrow('got "mysql://me:***@db/x"');
  });

  it('describes where a setting came from', () => {
    expect(describeSetting(loadConfig({ dataDir: '/tmp/a' }, {}), 'dataDir', 'data dir')).toBe(
      'data dir (flag --data-dir)',
    );
    expect(describeSetting(loadConfig({}, { RENDER_FARM_DATA_DIR: '/tmp/a' }), 'dataDir', 'data dir')).toBe(
      'data dir (env RENDER_FARM_DATA_DIR)',
    );
    expect(describeSetting(loadConfig({}, {}), 'dataDir', 'data dir')).toBe(
      'data dir (default; set RENDER_FARM_DATA_DIR)',
    );
  });

  it('builds the public base URL', () => {
    expect(baseUrl(loadConfig({}, {}), 1234)).toBe('http://127.0.0.1:1234');
    expect(baseUrl(loadConfig({ publicBaseUrl: 'https://r.example/api/' }, {}))).toBe('https://r.example/api');
  });
});
