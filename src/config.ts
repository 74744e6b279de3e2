/**
 * The one place that reads the environment. Precedence: defaults < env < flags.
 * Parsed once per process by `loadConfig`, validated by zod, frozen.
 */
import path from 'node:path';
import { z } from 'zod';
import { UserError } from './errors.js';

const bool = z
  .union([z.boolean(), z.enum(['1', '0', 'true', 'false', 'yes', 'no'])])
  .transform((v) => v === true || v === '1' || v === 'true' || v === 'yes');

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v));

export const configSchema = z.object({
  /** where embedded Postgres, the signing secret and artifacts live */
  dataDir: z.string().min(1).default('./.render-farm'),
  /** external PostgreSQL; when set nothing embedded starts */
  databaseUrl: optionalString.pipe(
    z.string().regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL').optional(),
  ),
  /** port of the embedded PostgreSQL */
  embeddedPgPort: z.coerce.number().int().min(1).max(65535).default(54329),
  host: z.string().min(1).default('127.0.0.1'),
  port: z.coerce.number().int().min(0).max(65535).default(8080),
  /** base of the URLs the API returns (set it behind a proxy) */
  publicBaseUrl: optionalString.pipe(z.string().url('must be an absolute URL').optional()),
  /** HS256 secret for session tokens; generated into the data dir when unset */
  signingSecret: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  /** requests a minute per customer on protected endpoints (0: no limit); per API process */
  rateLimitPerMinute: z.coerce.number().int().min(0).max(1_000_000).default(1200),
  /** requests a customer may send at once before the per-minute rate applies */
  rateLimitBurst: z.coerce.number().int().min(1).max(100_000).default(200),
  /** JSON body limit */
  bodyLimit: z.string().regex(/^\d+(b|kb|mb)$/i, 'like 100kb or 1mb').default('100kb'),
  logLevel: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  chromiumPath: optionalString,
  ffmpegPath: optionalString,
  ffprobePath: optionalString,
  /** where to look for chromium/ffmpeg after the well-known locations */
  searchPath: optionalString,
  /** WebGL backend: auto tries ANGLE over EGL (Mesa or a GPU), then SwiftShader */
  glBackend: z.enum(['auto', 'egl', 'swiftshader']).default('auto'),
  /** render jobs one worker process runs at once (rendering is CPU-bound: 1 per 2 cores) */
  workerConcurrency: z.coerce.number().int().min(1).max(64).default(1),
  /** a single render is aborted (and retried) after this long */
  renderTimeoutSeconds: z.coerce.number().int().min(10).max(86_400).default(900),
  /** on SIGTERM a worker waits this long for its running render before releasing it */
  drainTimeoutSeconds: z.coerce.number().int().min(0).max(3_600).default(60),
  /** POST /internal-render waits at most this long for the result */
  internalRenderWaitSeconds: z.coerce.number().int().min(1).max(3_600).default(300),
  /** seed the demo catalog into an empty database on start */
  seedDemo: bool.default(true),
  /**
   * Artifact store: unset = filesystem under `<dataDir>/artifacts`; `file:///abs/dir` = another
   * directory; `s3://bucket/optional/prefix` = an S3-compatible bucket (see the s3* keys).
   */
  storageUrl: optionalString.pipe(
    z.string().regex(/^(s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/.*)?|file:\/\/\/.+)$/, 'must be s3://bucket[/prefix] or file:///absolute/dir').optional(),
  ),
  /** S3-compatible endpoint (MinIO, R2, ...); unset = AWS `https://s3.<region>.amazonaws.com` */
  s3Endpoint: optionalString.pipe(z.string().url('must be an absolute URL').optional()),
  s3Region: z.string().min(1).default('us-east-1'),
  s3AccessKeyId: optionalString,
  s3SecretAccessKey: optionalString,
  /** temporary credentials (STS) carry a session token */
  s3SessionToken: optionalString,
  /** path-style URLs (`endpoint/bucket/key`); unset = on when s3Endpoint is set, else virtual-hosted */
  s3ForcePathStyle: bool.optional(),
  /** base URL when the bucket (or a CDN in front of it) is public; unset = presigned GET URLs */
  s3PublicUrl: optionalString.pipe(z.string().url('must be an absolute URL').optional()),
  /** lifetime of presigned URLs; SigV4 allows at most 7 days */
  s3PresignSeconds: z.coerce.number().int().min(60).max(604800).default(3600),
});

export type Config = Readonly<z.output<typeof configSchema>>;
export type ConfigInput = z.input<typeof configSchema>;

/** Environment variable for each config key. */
export const ENV_NAMES: Record<keyof ConfigInput, string> = {
  dataDir: 'RENDER_FARM_DATA_DIR',
  databaseUrl: 'DATABASE_URL',
  embeddedPgPort: 'RENDER_FARM_PG_PORT',
  host: 'HOST',
  port: 'PORT',
  publicBaseUrl: 'PUBLIC_BASE_URL',
  signingSecret: 'RENDER_FARM_SIGNING_SECRET',
  bodyLimit: 'RENDER_FARM_BODY_LIMIT',
  rateLimitPerMinute: 'RENDER_FARM_RATE_LIMIT',
  rateLimitBurst: 'RENDER_FARM_RATE_BURST',
  logLevel: 'LOG_LEVEL',
  chromiumPath: 'CHROMIUM_PATH',
  ffmpegPath: 'FFMPEG_PATH',
  ffprobePath: 'FFPROBE_PATH',
  glBackend: 'RENDER_FARM_GL',
  searchPath: 'PATH',
  seedDemo: 'RENDER_FARM_SEED_DEMO',
  workerConcurrency: 'RENDER_FARM_WORKER_CONCURRENCY',
  renderTimeoutSeconds: 'RENDER_FARM_RENDER_TIMEOUT',
  drainTimeoutSeconds: 'RENDER_FARM_DRAIN_TIMEOUT',
  internalRenderWaitSeconds: 'RENDER_FARM_INTERNAL_RENDER_WAIT',
  storageUrl: 'STORAGE_URL',
  s3Endpoint: 'S3_ENDPOINT',
  s3Region: 'S3_REGION',
  s3AccessKeyId: 'S3_ACCESS_KEY_ID',
  s3SecretAccessKey: 'S3_SECRET_ACCESS_KEY',
  s3SessionToken: 'S3_SESSION_TOKEN',
  s3ForcePathStyle: 'S3_FORCE_PATH_STYLE',
  s3PublicUrl: 'S3_PUBLIC_URL',
  s3PresignSeconds: 'S3_PRESIGN_SECONDS',
};

/** Second-choice environment variables (the AWS SDK's names), used when the first is unset. */
export const ENV_FALLBACK_NAMES: Partial<Record<keyof ConfigInput, string>> = {
  s3Region: 'AWS_REGION',
  s3AccessKeyId: 'AWS_ACCESS_KEY_ID',
  s3SecretAccessKey: 'AWS_SECRET_ACCESS_KEY',
  s3SessionToken: 'AWS_SESSION_TOKEN',
};

/** A bad setting, named with where it came from (exit 2). */
export class ConfigError extends UserError {
  constructor(message: string) {
    super('invalid_config', message);
    this.name = 'ConfigError';
  }
}

/**
 * Builds the config from defaults, then `env`, then `flags` (undefined flags are ignored).
 * Throws ConfigError naming each bad value and where it came from.
 */
export function loadConfig(
  flags: Partial<Record<keyof ConfigInput, unknown>> = {},
  env: Record<string, string | undefined> = process.env,
): Config {
  const merged: Record<string, unknown> = {};
  const source: Record<string, string> = {};
  // fallbacks first so that the primary name, read next, wins when both are set
  for (const [key, name] of Object.entries(ENV_FALLBACK_NAMES)) {
    if (env[name] !== undefined && env[name] !== '') {
      merged[key] = env[name];
      source[key] = `env ${name}`;
    }
  }
  for (const [key, name] of Object.entries(ENV_NAMES)) {
    if (env[name] !== undefined && env[name] !== '') {
      merged[key] = env[name];
      source[key] = `env ${name}`;
    }
  }
  for (const [key, value] of Object.entries(flags)) {
    if (value !== undefined) {
      merged[key] = value;
      source[key] = `flag --${key.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase())}`;
    }
  }
  const parsed = configSchema.safeParse(merged);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => {
      const key = String(i.path[0] ?? '');
      return `${key} (${source[key] ?? 'default'}): ${i.message}`;
    });
    throw new ConfigError(`invalid configuration: ${lines.join('; ')}`);
  }
  const cfg = { ...parsed.data, dataDir: path.resolve(parsed.data.dataDir) };
  return Object.freeze(cfg);
}

/** Public base URL of the API, without a trailing slash. */
export function baseUrl(cfg: Config, listeningPort?: number): string {
  if (cfg.publicBaseUrl) return cfg.publicBaseUrl.replace(/\/+$/, '');
  const host = cfg.host === '0.0.0.0' || cfg.host === '::' ? '127.0.0.1' : cfg.host;
  return `http://${host}:${listeningPort ?? cfg.port}`;
}

/** Reads one environment variable that tools outside the config need (e.g. CI detection). */
export function isCi(env: Record<string, string | undefined> = process.env): boolean {
  return env.CI === 'true' || env.CI === '1';
}
