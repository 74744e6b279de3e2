/**
 * The one place that reads the environment. Precedence: defaults < env < flags.
 * Parsed once per process by `loadConfig`, validated by zod, frozen.
 */
import net from 'node:net';
import path from 'node:path';
import { z } from 'zod';
import { UserError } from './errors.js';

const bool = z
  .union([z.boolean(), z.enum(['1', '0', 'true', 'false', 'yes', 'no'])], {
    error: 'expected true or false (or 1/0, yes/no)',
  })
  .transform((v) => v === true || v === '1' || v === 'true' || v === 'yes');

const optionalString = z
  .string()
  .optional()
  .transform((v) => (v === undefined || v.trim() === '' ? undefined : v));

const PROXY_RANGES = ['loopback', 'linklocal', 'uniquelocal'];

/** An address, a CIDR or one of Express's named ranges (a `trust proxy` list entry). */
function proxyEntryProblem(entry: string): string | null {
  if (PROXY_RANGES.includes(entry)) return null;
  const [addr, bits, ...rest] = entry.split('/');
  const family = net.isIP(addr);
  if (!family || rest.length) return `"${entry}" is not an IP address, a CIDR or one of ${PROXY_RANGES.join(', ')}`;
  if (bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128)))
    return `"${entry}" has a bad prefix length`;
  return null;
}

/**
 * Whose X-Forwarded-For/-Proto/-Host to believe (Express's `trust proxy`): false, true (any
 * peer: only behind a proxy that overwrites them), a hop count, or a comma list of addresses,
 * CIDRs and the named ranges.
 */
const trustProxy = z.union([z.boolean(), z.number(), z.string()]).transform((v, ctx): boolean | number | string[] => {
  if (typeof v !== 'string') return v;
  const s = v.trim().toLowerCase();
  if (s === 'true' || s === 'false') return s === 'true';
  if (/^\d+$/.test(s)) return Number(s);
  const list = s
    .split(',')
    .map((e) => e.trim())
    .filter(Boolean);
  for (const entry of list) {
    const problem = proxyEntryProblem(entry);
    if (problem) ctx.addIssue({ code: 'custom', message: problem });
  }
  if (!list.length) ctx.addIssue({ code: 'custom', message: 'empty: use false to trust no proxy' });
  return list;
});

/** `a.b.c.d/n,ip6::/n,...` (a bare address is a /32 or /128) -> the list. */
const cidrList = z
  .string()
  .optional()
  .transform((v, ctx) => {
    if (v === undefined) return [] as string[];
    const list = v
      .split(',')
      .map((s) => s.trim())
      .filter(Boolean);
    for (const c of list) {
      const [addr, bits, extra] = c.split('/');
      const family = net.isIP(addr ?? '');
      const max = family === 6 ? 128 : 32;
      if (!family || extra !== undefined || (bits !== undefined && !(/^\d+$/.test(bits) && Number(bits) <= max))) {
        ctx.addIssue({ code: 'custom', message: `"${c}" is not an address or CIDR like 127.0.0.0/8` });
      }
    }
    return list;
  });

export const configSchema = z.object({
  /** where embedded Postgres, the demo key and artifacts live */
  dataDir: z.string().min(1).default('./.render-farm'),
  /** external PostgreSQL 14+; when set nothing embedded starts */
  databaseUrl: optionalString.pipe(
    z
      .string()
      .regex(/^postgres(ql)?:\/\//, 'must be a postgres:// URL')
      .optional(),
  ),
  /** port of the embedded PostgreSQL */
  embeddedPgPort: z.coerce.number().int().min(1).max(65535).default(54329),
  /** address `serve` and `up` listen on (0.0.0.0 for all) */
  host: z.string().min(1).default('127.0.0.1'),
  /** port `serve` and `up` listen on (0 picks a free one) */
  port: z.coerce.number().int().min(0).max(65535).default(8080),
  /** base of the URLs the API returns (set it behind a proxy) */
  publicBaseUrl: optionalString.pipe(z.string().url('must be an absolute URL').optional()),
  /**
   * proxies whose forwarded headers decide the client address and the scheme/host of returned URLs:
   * false, true (any peer), a hop count, or a comma list of addresses, CIDRs and the named ranges
   */
  trustProxy: trustProxy.prefault(PROXY_RANGES.join(', ')),
  /** HS256 secret for session tokens; when unset, one is created once in the database and shared (src/auth/signing-secret.ts) */
  signingSecret: optionalString.pipe(z.string().min(32, 'must be at least 32 characters').optional()),
  /**
   * requests a minute per credential (one session token, i.e. one visitor; or one API key) on
   * protected endpoints (0: no limit); per API process
   */
  rateLimitPerMinute: z.coerce.number().int().min(0).max(1_000_000).default(1200),
  /** requests one credential may send at once before the per-minute rate applies */
  rateLimitBurst: z.coerce.number().int().min(1).max(100_000).default(200),
  /** ceiling over all of one customer's credentials together, a minute (0: no ceiling); per API process */
  customerRateLimitPerMinute: z.coerce.number().int().min(0).max(10_000_000).default(12_000),
  /** requests all of one customer's credentials may send at once */
  customerRateLimitBurst: z.coerce.number().int().min(1).max(1_000_000).default(2_000),
  /** failed authentications a minute per client address before 429 (0: no limit); per API process */
  authFailureLimitPerMinute: z.coerce.number().int().min(0).max(1_000_000).default(60),
  /** failed authentications an address may have at once before the per-minute rate applies */
  authFailureBurst: z.coerce.number().int().min(1).max(100_000).default(30),
  /** how long a web console sign-in lasts, seconds (the cookie's Max-Age and the session row's expiry) */
  consoleSessionTtlSeconds: z.coerce
    .number()
    .int()
    .min(60)
    .max(30 * 86_400)
    .default(8 * 3600),
  /** JSON body limit (413 above) */
  bodyLimit: z
    .string()
    .regex(/^\d+(b|kb|mb)$/i, 'like 100kb or 1mb')
    .default('100kb'),
  /** log level; keys and tokens are never logged */
  logLevel: z.enum(['debug', 'info', 'warn', 'error', 'silent']).default('info'),
  /** auto: human lines on a terminal, JSON otherwise */
  logFormat: z.enum(['auto', 'json', 'pretty']).default('auto'),
  /** the Chromium to render with; unset: the system's (well-known places, then searchPath), then the npm-packaged one */
  chromiumPath: optionalString,
  /** the ffmpeg to encode with; unset: the system's, then the npm-packaged one */
  ffmpegPath: optionalString,
  /** the ffprobe to check videos with; unset: the system's, then the npm-packaged one */
  ffprobePath: optionalString,
  /** where to look for chromium/ffmpeg after the well-known locations */
  searchPath: optionalString,
  /** look for system-installed Chromium/ffmpeg/ffprobe; false: configured paths and npm-packaged binaries only */
  systemTools: bool.default(true),
  /** WebGL backend: auto tries a GPU (ANGLE over Vulkan), then ANGLE over EGL (Mesa or a vendor driver), then SwiftShader */
  glBackend: z.enum(['auto', 'gpu', 'egl', 'swiftshader']).default('auto'),
  /** render jobs one worker process runs at once (rendering is CPU-bound: 1 per 2 cores) */
  workerConcurrency: z.coerce.number().int().min(1).max(64).default(1),
  /** a single render is aborted (and retried) after this long */
  renderTimeoutSeconds: z.coerce.number().int().min(10).max(86_400).default(900),
  /**
   * Chunked renders (src/jobs/chunk-plan.ts): a render is split into frame ranges of about
   * this many seconds on the slowest live worker when that beats the whole render on the live
   * workers (or it is worth over 3 chunks: fairness), rendered by any workers and assembled
   * without re-encoding. 0: every render is one task.
   */
  chunkSeconds: z.coerce.number().min(0).max(3_600).default(10),
  /** on SIGTERM a worker waits this long for its running render before releasing it */
  drainTimeoutSeconds: z.coerce.number().int().min(0).max(3_600).default(60),
  /**
   * Admission (src/jobs/admission.ts): the largest frame a worker renders, megapixels (0: no
   * bound). 16.8 admits 4096x4096 and refuses 8192x8192 (Chromium took 5-8 GB on that).
   */
  maxFrameMegapixels: z.coerce.number().min(0).max(100).default(16.8),
  /** per-job ceiling on a render's estimated seconds of worker time (src/jobs/cost-model.ts; 0: none); under the render time-out */
  maxJobCostSeconds: z.coerce.number().int().min(0).max(1_000_000).default(600),
  /** per-customer cap on the estimated seconds of its queued and processing renders (0: none) */
  maxCustomerInFlightSeconds: z.coerce.number().int().min(0).max(100_000_000).default(3600),
  /** POST /internal-render waits at most this long for the result */
  internalRenderWaitSeconds: z.coerce.number().int().min(1).max(3_600).default(300),
  /** seed the demo catalog into an empty database (no parts, no builds) on start; a catalog holding anything is never touched. Set false in production */
  seedDemo: bool.default(true),
  /**
   * Artifact store: unset = filesystem under `<dataDir>/artifacts`; `file:///abs/dir` = another
   * directory; `s3://bucket/optional/prefix` = an S3-compatible bucket (see the s3* keys).
   */
  storageUrl: optionalString.pipe(
    z
      .string()
      .regex(
        /^(s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/.*)?|file:\/\/\/.+)$/,
        'must be s3://bucket[/prefix] or file:///absolute/dir',
      )
      .optional(),
  ),
  /** S3-compatible endpoint (MinIO, R2, ...); unset = AWS `https://s3.<region>.amazonaws.com` */
  s3Endpoint: optionalString.pipe(z.string().url('must be an absolute URL').optional()),
  /** the bucket's region (SigV4 signs with it) */
  s3Region: z.string().min(1).default('us-east-1'),
  /** S3 access key id; an s3:// store needs it and the secret (the store refuses to start without them) */
  s3AccessKeyId: optionalString,
  /** the secret of s3AccessKeyId */
  s3SecretAccessKey: optionalString,
  /** temporary credentials (STS) carry a session token */
  s3SessionToken: optionalString,
  /** path-style URLs (`endpoint/bucket/key`); unset = on when s3Endpoint is set, else virtual-hosted */
  s3ForcePathStyle: bool.optional(),
  /** base URL when the bucket (or a CDN in front of it) is public; unset = presigned GET URLs */
  s3PublicUrl: optionalString.pipe(z.string().url('must be an absolute URL').optional()),
  /** lifetime of presigned URLs; SigV4 allows at most 7 days */
  s3PresignSeconds: z.coerce.number().int().min(60).max(604800).default(3600),
  /** seconds between SSE heartbeat comments (proxies cut streams idle for ~60 s) */
  eventsHeartbeatSeconds: z.coerce.number().int().min(1).max(300).default(15),
  /**
   * Webhook targets resolving to private, loopback or link-local addresses are refused (SSRF)
   * unless inside one of these comma-separated CIDRs (e.g. `127.0.0.0/8,10.1.0.0/16`).
   */
  webhookAllowPrivate: optionalString.pipe(cidrList),
  /** allow http:// webhook URLs (development only; production targets should be https) */
  webhookAllowHttp: bool.default(false),
  /** webhook deliveries one serve process runs at once (0: this process delivers none) */
  webhookConcurrency: z.coerce.number().int().min(0).max(64).default(4),
  /** bound on one webhook POST, seconds */
  webhookTimeoutSeconds: z.coerce.number().int().min(1).max(120).default(10),
  /** Part models (src/part-models/): the largest model file (a .gltf with its files: all together), bytes; 413 above */
  modelMaxBytes: z.coerce
    .number()
    .int()
    .min(1024)
    .max(2 ** 31)
    .default(64 * 1024 * 1024),
  /** triangles one part's prepared model may have: more are simplified down to it (meshoptimizer) */
  modelMaxTriangles: z.coerce.number().int().min(100).max(10_000_000).default(150_000),
  /** a prepared model's textures are resized to at most this many pixels a side */
  modelMaxTextureSize: z.coerce.number().int().min(16).max(16_384).default(2048),
  /** nodes a model may have (anchors included) */
  modelMaxNodes: z.coerce.number().int().min(1).max(1_000_000).default(1000),
  /** seconds one model preparation (a child process) may take before it is killed: 422 model_too_complex */
  modelPrepareTimeoutSeconds: z.coerce.number().int().min(1).max(3600).default(120),
  /** memory one model preparation may use, MB (the child's heap limit and resident size): 422 model_too_complex above */
  modelPrepareMemoryMb: z.coerce.number().int().min(128).max(65_536).default(2048),
  /**
   * Storage lifecycle (src/jobs/artifact-retention.ts, row-retention.ts): renders' files beyond
   * this many bytes are removed, least recently requested first (0: no byte budget)
   */
  storeMaxBytes: z.coerce
    .number()
    .int()
    .min(0)
    .max(Number.MAX_SAFE_INTEGER)
    .default(50 * 1024 ** 3),
  /** renders' files not requested for this many days are removed (0: no age limit) */
  storeMaxAgeDays: z.coerce.number().min(0).max(36_500).default(30),
  /** files of a render finished or requested this recently are never removed, whatever the budget */
  storeKeepRecentMinutes: z.coerce.number().min(0).max(100_000).default(60),
  /** jobs, renders, chunks, events and webhook deliveries older than this many days are deleted (0: kept forever) */
  rowRetentionDays: z.coerce.number().min(0).max(36_500).default(30),
  /** a deleted job's id answers `job_expired` (not `job_not_found`) for this many days */
  jobTombstoneDays: z.coerce.number().min(0).max(36_500).default(365),
  /** minutes between retention sweeps, run by one worker of the farm (0: only `render-farm cache gc`; 60 at most) */
  retentionSweepMinutes: z.coerce.number().int().min(0).max(60).default(10),
  /**
   * Dead-worker recovery (src/jobs/sweeper.ts): a worker silent for this many seconds has its
   * jobs freed for another worker, and `top` shows it silent. At least twice the 5 s heartbeat,
   * so a live worker is never swept; tests lower it to wait out a killed worker sooner.
   */
  workerDeadAfterSeconds: z.coerce.number().int().min(10).max(3600).default(30),
  /**
   * Connection budget (src/db/connection-budget.ts): worker processes this farm runs against
   * its PostgreSQL, all machines together; `doctor` checks max_connections against them
   * (0: unknown, doctor checks the free slots against one worker process's need).
   */
  expectedWorkers: z.coerce.number().int().min(0).max(100_000).default(0),
  /** connections in a worker process's pool; 0: concurrency + 2 (the budget's formula) */
  workerDbPool: z.coerce.number().int().min(0).max(1_000).default(0),
  /**
   * TEST AND BENCH ONLY: > 0 makes `worker` render with the fake stage (src/render/fake-engine.ts:
   * solid-colour frames at this many ms each, no Chromium), so one machine can host tens of
   * worker processes for bench:control-plane. Never set it on a real farm.
   */
  fakeStageMs: z.coerce.number().min(0).max(10_000).default(0),
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
  trustProxy: 'TRUST_PROXY',
  signingSecret: 'RENDER_FARM_SIGNING_SECRET',
  bodyLimit: 'RENDER_FARM_BODY_LIMIT',
  rateLimitPerMinute: 'RENDER_FARM_RATE_LIMIT',
  rateLimitBurst: 'RENDER_FARM_RATE_BURST',
  customerRateLimitPerMinute: 'RENDER_FARM_CUSTOMER_RATE_LIMIT',
  customerRateLimitBurst: 'RENDER_FARM_CUSTOMER_RATE_BURST',
  authFailureLimitPerMinute: 'RENDER_FARM_AUTH_FAILURE_LIMIT',
  authFailureBurst: 'RENDER_FARM_AUTH_FAILURE_BURST',
  consoleSessionTtlSeconds: 'RENDER_FARM_CONSOLE_SESSION_TTL',
  logLevel: 'LOG_LEVEL',
  logFormat: 'LOG_FORMAT',
  chromiumPath: 'CHROMIUM_PATH',
  ffmpegPath: 'FFMPEG_PATH',
  ffprobePath: 'FFPROBE_PATH',
  glBackend: 'RENDER_FARM_GL',
  searchPath: 'PATH',
  systemTools: 'RENDER_FARM_SYSTEM_TOOLS',
  seedDemo: 'RENDER_FARM_SEED_DEMO',
  workerConcurrency: 'RENDER_FARM_WORKER_CONCURRENCY',
  renderTimeoutSeconds: 'RENDER_FARM_RENDER_TIMEOUT',
  drainTimeoutSeconds: 'RENDER_FARM_DRAIN_TIMEOUT',
  chunkSeconds: 'RENDER_FARM_CHUNK_SECONDS',
  internalRenderWaitSeconds: 'RENDER_FARM_INTERNAL_RENDER_WAIT',
  maxFrameMegapixels: 'RENDER_FARM_MAX_FRAME_MEGAPIXELS',
  maxJobCostSeconds: 'RENDER_FARM_MAX_JOB_COST',
  maxCustomerInFlightSeconds: 'RENDER_FARM_MAX_CUSTOMER_IN_FLIGHT',
  storageUrl: 'STORAGE_URL',
  s3Endpoint: 'S3_ENDPOINT',
  s3Region: 'S3_REGION',
  s3AccessKeyId: 'S3_ACCESS_KEY_ID',
  s3SecretAccessKey: 'S3_SECRET_ACCESS_KEY',
  s3SessionToken: 'S3_SESSION_TOKEN',
  s3ForcePathStyle: 'S3_FORCE_PATH_STYLE',
  s3PublicUrl: 'S3_PUBLIC_URL',
  s3PresignSeconds: 'S3_PRESIGN_SECONDS',
  eventsHeartbeatSeconds: 'RENDER_FARM_EVENTS_HEARTBEAT',
  webhookAllowPrivate: 'RENDER_FARM_WEBHOOK_ALLOW_PRIVATE',
  webhookAllowHttp: 'RENDER_FARM_WEBHOOK_ALLOW_HTTP',
  webhookConcurrency: 'RENDER_FARM_WEBHOOK_CONCURRENCY',
  webhookTimeoutSeconds: 'RENDER_FARM_WEBHOOK_TIMEOUT',
  modelMaxBytes: 'RENDER_FARM_MODEL_MAX_BYTES',
  modelMaxTriangles: 'RENDER_FARM_MODEL_MAX_TRIANGLES',
  modelMaxTextureSize: 'RENDER_FARM_MODEL_MAX_TEXTURE',
  modelMaxNodes: 'RENDER_FARM_MODEL_MAX_NODES',
  modelPrepareTimeoutSeconds: 'RENDER_FARM_MODEL_PREPARE_TIMEOUT',
  modelPrepareMemoryMb: 'RENDER_FARM_MODEL_PREPARE_MEMORY_MB',
  storeMaxBytes: 'RENDER_FARM_STORE_MAX_BYTES',
  storeMaxAgeDays: 'RENDER_FARM_STORE_MAX_AGE_DAYS',
  storeKeepRecentMinutes: 'RENDER_FARM_STORE_KEEP_RECENT_MINUTES',
  rowRetentionDays: 'RENDER_FARM_ROW_RETENTION_DAYS',
  jobTombstoneDays: 'RENDER_FARM_JOB_TOMBSTONE_DAYS',
  retentionSweepMinutes: 'RENDER_FARM_RETENTION_SWEEP_MINUTES',
  workerDeadAfterSeconds: 'RENDER_FARM_WORKER_DEAD_AFTER',
  expectedWorkers: 'RENDER_FARM_EXPECTED_WORKERS',
  workerDbPool: 'RENDER_FARM_WORKER_DB_POOL',
  fakeStageMs: 'RENDER_FARM_FAKE_STAGE_MS',
};

/** Second-choice environment variables (the AWS SDK's names), used when the first is unset. */
export const ENV_FALLBACK_NAMES: Partial<Record<keyof ConfigInput, string>> = {
  s3Region: 'AWS_REGION',
  s3AccessKeyId: 'AWS_ACCESS_KEY_ID',
  s3SecretAccessKey: 'AWS_SECRET_ACCESS_KEY',
  s3SessionToken: 'AWS_SESSION_TOKEN',
};

/** A setting that a command-line flag can set; its env name and default come from above. */
export interface SettingFlag {
  /** the flag when it is not `--<key in kebab-case>` */
  flag?: string;
  /** commander's placeholder: `--port <port>` */
  arg: string;
  /** what the setting does, the start of the help text */
  help: string;
  /** said after the env name and default, e.g. `0 picks a free one` */
  note?: string;
}

/**
 * Every setting a flag can set, declared once: src/cli/setting-flags.ts makes the commander
 * options (help: `<help> (env NAME, default VALUE; note)`) and reads them into loadConfig,
 * which validates them like the environment's values.
 */
export const SETTING_FLAGS = {
  dataDir: { arg: 'dir', help: 'data directory: embedded Postgres, demo key, artifacts' },
  databaseUrl: { arg: 'url', help: 'external PostgreSQL; nothing embedded starts' },
  embeddedPgPort: { flag: '--pg-port', arg: 'port', help: 'port of the embedded PostgreSQL' },
  logLevel: { arg: 'level', help: 'log level' },
  port: { arg: 'port', help: 'port to listen on', note: '0 picks a free one' },
  host: { arg: 'host', help: 'address to bind', note: '0.0.0.0 for all' },
  publicBaseUrl: { arg: 'url', help: 'base of returned URLs behind a proxy' },
  glBackend: { flag: '--gl', arg: 'backend', help: 'WebGL backend' },
  workerConcurrency: { flag: '--concurrency', arg: 'n', help: 'renders at once', note: 'rendering is CPU-bound' },
  renderTimeoutSeconds: {
    flag: '--render-timeout',
    arg: 'seconds',
    help: 'abort (and retry) a render after this long',
  },
  drainTimeoutSeconds: {
    flag: '--drain-timeout',
    arg: 'seconds',
    help: 'on SIGTERM, wait this long for the running render',
  },
} satisfies Partial<Record<keyof ConfigInput, SettingFlag>>;

export type FlagSetting = keyof typeof SETTING_FLAGS;

/** The value a setting has when neither env nor a flag sets it (as shown in help), or undefined. */
export function settingDefault(key: keyof ConfigInput): string | undefined {
  const parsed = configSchema.shape[key].safeParse(undefined);
  if (!parsed.success || parsed.data === undefined) return undefined;
  return Array.isArray(parsed.data) ? parsed.data.join(',') : String(parsed.data);
}

/** The values an enum setting accepts (glBackend, logLevel), or undefined. */
export function settingChoices(key: keyof ConfigInput): readonly string[] | undefined {
  let t: z.core.$ZodType = configSchema.shape[key];
  // through .default() / .optional() to the enum inside
  while ('innerType' in t._zod.def) t = t._zod.def.innerType as z.core.$ZodType;
  return t instanceof z.ZodEnum ? (t.options as string[]) : undefined;
}

/** A flag's help: `<help>[: a, b or c] (env NAME[, default VALUE][; note])`; `what` replaces the help's start for one command. */
export function settingHelp(key: FlagSetting, what?: string): string {
  const s: SettingFlag = SETTING_FLAGS[key];
  const choices = settingChoices(key);
  const def = settingDefault(key);
  const oneOf = choices ? `: ${choices.slice(0, -1).join(', ')} or ${choices.at(-1)}` : '';
  return `${what ?? s.help}${oneOf} (env ${ENV_NAMES[key]}${def === undefined ? '' : `, default ${def}`}${s.note ? `; ${s.note}` : ''})`;
}

/** Keys whose values never appear in messages. */
const SECRET_KEYS = new Set<string>(['signingSecret', 's3SecretAccessKey', 's3SessionToken', 's3AccessKeyId']);

export function flagName(key: keyof ConfigInput): string {
  const s: SettingFlag | undefined = (SETTING_FLAGS as Partial<Record<keyof ConfigInput, SettingFlag>>)[key];
  return s?.flag ?? `--${key.replace(/[A-Z]/g, (c) => '-' + c.toLowerCase())}`;
}

/** Where each value of a loaded config came from (`flag --pg-port`, `env PORT`); absent = default. */
const SOURCES = new WeakMap<object, Partial<Record<string, string>>>();

/**
 * A setting named for messages, with where its value came from: `data dir (flag --data-dir)`,
 * `data dir (env RENDER_FARM_DATA_DIR)` or `data dir (default; set RENDER_FARM_DATA_DIR)`.
 */
export function describeSetting(cfg: Config, key: keyof ConfigInput, what: string): string {
  const source = SOURCES.get(cfg)?.[key];
  return `${what} (${source ?? `default; set ${ENV_NAMES[key]}`})`;
}

/** A zod issue in words a user of the CLI or the environment reads. */
function issueText(issue: z.core.$ZodIssue): string {
  const i = issue as z.core.$ZodIssue & {
    expected?: string;
    minimum?: unknown;
    maximum?: unknown;
    values?: unknown[];
    origin?: string;
  };
  // a message written in the schema already reads well; zod's own start like this
  if (!/^(Invalid|Too (small|big))/.test(i.message)) return i.message;
  if (i.code === 'invalid_type' && i.expected === 'number') return 'expected a number';
  if (i.code === 'invalid_type' && i.expected === 'int') return 'expected a whole number';
  const unit = i.origin === 'string' ? ' characters' : '';
  if (i.code === 'too_small' && typeof i.minimum === 'number') return `must be at least ${i.minimum}${unit}`;
  if (i.code === 'too_big' && typeof i.maximum === 'number') return `must be at most ${i.maximum}${unit}`;
  if (i.code === 'invalid_value' && Array.isArray(i.values)) return `expected one of ${i.values.join(', ')}`;
  return i.message;
}

/** The offending value as it was given, quoted (secrets and passwords left out). */
function shownValue(key: string, value: unknown): string {
  if (value === undefined) return '';
  if (SECRET_KEYS.has(key)) return ' (value not shown)';
  const text = typeof value === 'string' ? value.replace(/\/\/([^:@/]+):[^@]*@/, '//$1:***@') : String(value);
  return `, got ${JSON.stringify(text)}`;
}

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
      source[key] = `flag ${flagName(key as keyof ConfigInput)}`;
    }
  }
  const parsed = configSchema.safeParse(merged);
  if (!parsed.success) {
    const lines = parsed.error.issues.map((i) => {
      const key = String(i.path[0] ?? '');
      return `${key} (${source[key] ?? 'default'}): ${issueText(i)}${shownValue(key, merged[key])}`;
    });
    throw new ConfigError(`invalid configuration: ${lines.join('; ')}`);
  }
  const cfg = Object.freeze({ ...parsed.data, dataDir: path.resolve(parsed.data.dataDir) });
  SOURCES.set(cfg, source);
  return cfg;
}

/** Public base URL of the API, without a trailing slash. */
export function baseUrl(cfg: Config, listeningPort?: number): string {
  if (cfg.publicBaseUrl) return cfg.publicBaseUrl.replace(/\/+$/, '');
  const host = cfg.host === '0.0.0.0' || cfg.host === '::' ? '127.0.0.1' : cfg.host;
  return `http://${host}:${listeningPort ?? cfg.port}`;
}

/**
 * The environment a child program inherits (Chromium: the GPU probe reads LD_LIBRARY_PATH and
 * VK_DRIVER_FILES from it and sets them for the launch), with `extra` on top.
 */
export function childEnvironment(
  extra: Record<string, string> = {},
  env: Record<string, string | undefined> = process.env,
): Record<string, string | undefined> {
  return { ...env, ...extra };
}

/** Reads one environment variable that tools outside the config need (e.g. CI detection). */
export function isCi(env: Record<string, string | undefined> = process.env): boolean {
  return env.CI === 'true' || env.CI === '1';
}
