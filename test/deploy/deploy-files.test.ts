/**
 * deploy/ cannot run here (no Docker, no Kubernetes, no KEDA on this machine or in CI), so its
 * files are checked statically against what they name: every YAML file parses; compose.yaml
 * validates against the Compose Specification's JSON schema (vendored) and the Kubernetes/KEDA
 * manifests against the subset of their API fields the manifests use (schemas/k8s-subset.json);
 * every render-farm container runs a real CLI command with real flags, sets only settings that
 * src/config.ts reads, and with the example values (deploy/.env.example, the Secret example)
 * loads a valid config; probes and healthchecks ask real routes of a real API; the worker's
 * grace period covers its drain; the Service, the ScaledObject and their targets agree; and
 * KEDA's query runs on graphile-worker's real schema and counts the right jobs.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Ajv, type ValidateFunction } from 'ajv';
import { sql } from 'kysely';
import { describe, expect, it } from 'vitest';
import { parseAllDocuments } from 'yaml';
import type { Command } from 'commander';
import { buildFullProgram } from '../../src/cli/index.js';
import { ENV_FALLBACK_NAMES, ENV_NAMES, loadConfig, type Config } from '../../src/config.js';
import { addJobRows } from '../../src/jobs/queue/graphile-tables.js';
import { installQueue } from '../../src/jobs/queue/runner.js';
import { TASKS, type TaskName } from '../../src/jobs/queue/task-map.js';
import { useTestApi } from '../helpers/api.js';

const DEPLOY = 'deploy';
const K8S = path.join(DEPLOY, 'k8s');
/** The image the project's Dockerfile builds, as compose.yaml tags it and the manifests name it. */
const IMAGE = 'render-farm';
/** src/jobs/worker.ts: after the drain bound, up to 15 s to release the running render and exit. */
const RELEASE_AFTER_DRAIN_S = 15;
/** What a supervisor should add on top before it kills (docs/operating.md: 90 s in all by default). */
const MIN_MARGIN_S = 10;

type Obj = Record<string, any>;

/** Every YAML document of a file; a syntax error or warning (duplicate key, bad alias) fails. */
function yamlDocs(file: string): Obj[] {
  const docs = parseAllDocuments(readFileSync(file, 'utf8'), { merge: true, uniqueKeys: true });
  if (!Array.isArray(docs)) throw new Error(`${file}: not a YAML stream`);
  return docs.map((d) => {
    const problems = [...d.errors, ...d.warnings].map((e) => e.message);
    if (problems.length) throw new Error(`${file}: ${problems.join('; ')}`);
    return d.toJS() as Obj;
  });
}

function yamlFiles(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((e) => {
    const p = path.join(dir, e.name);
    return e.isDirectory() ? yamlFiles(p) : /\.ya?ml$/.test(e.name) ? [p] : [];
  });
}

/** `KEY=value` lines (comments and blanks skipped). */
function dotenv(file: string): Record<string, string> {
  const out: Record<string, string> = {};
  for (const line of readFileSync(file, 'utf8').split('\n')) {
    const m = /^([A-Za-z_][A-Za-z0-9_]*)=(.*)$/.exec(line.trim());
    if (m) out[m[1]!] = m[2]!;
  }
  return out;
}

/** Compose's interpolation: `${VAR}`, `${VAR:-default}`, `${VAR:?message}` (unset or empty fails), `$$`. */
function interpolate(value: string, vars: Record<string, string>): string {
  return value.replace(
    /\$\$|\$\{([A-Za-z_][A-Za-z0-9_]*)(?:(:-|:\?)([^}]*))?\}/g,
    (whole, name: string | undefined, op: string | undefined, arg: string | undefined) => {
      if (whole === '$$') return '$';
      const v = vars[name!];
      if (op === ':?' && !v) throw new Error(`${name} is required: ${arg}`);
      return v || (op === ':-' ? arg! : '');
    },
  );
}

function interpolateDeep(v: unknown, vars: Record<string, string>): unknown {
  if (typeof v === 'string') return interpolate(v, vars);
  if (Array.isArray(v)) return v.map((x) => interpolateDeep(x, vars));
  if (v && typeof v === 'object')
    return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, interpolateDeep(x, vars)]));
  return v;
}

/** Every environment variable src/config.ts reads. */
const KNOWN_ENV = new Set<string>([...Object.values(ENV_NAMES), ...Object.values(ENV_FALLBACK_NAMES)]);

/**
 * The CLI command `args` runs (e.g. `db migrate`), walking the real program's tree (the one
 * `render-farm --help` prints): every word must be a sub-command and every flag one that
 * command (or the program) declares; the command reached must be a leaf.
 */
function cliCommand(program: Command, args: readonly string[]): string {
  let cmd = program;
  const words: string[] = [];
  for (const arg of args) {
    if (arg.startsWith('-')) {
      const flag = arg.split('=')[0]!;
      const declared = [...cmd.options, ...program.options].some((o) => o.long === flag || o.short === flag);
      if (!declared) throw new Error(`render-farm ${words.join(' ')} has no option ${flag}`);
      continue;
    }
    const sub = cmd.commands.find((c) => c.name() === arg || c.aliases().includes(arg));
    // a word after the leaf is an option's value or an argument
    if (!sub && cmd.commands.length === 0) continue;
    if (!sub)
      throw new Error(
        `render-farm ${[...words, arg].join(' ')}: no such command (have: ${cmd.commands.map((c) => c.name()).join(', ')})`,
      );
    cmd = sub;
    words.push(arg);
  }
  if (cmd.commands.length) throw new Error(`render-farm ${words.join(' ')} needs a sub-command`);
  return words.join(' ');
}

/** "90s", "1m30s" (compose durations) -> seconds. */
function durationSeconds(d: string): number {
  const m = /^(?:(\d+)m)?(?:(\d+)s)?$/.exec(d);
  if (!m || (!m[1] && !m[2])) throw new Error(`not a duration: ${d}`);
  return Number(m[1] ?? 0) * 60 + Number(m[2] ?? 0);
}

function ajv(): Ajv {
  // strict off: the compose schema uses annotation keywords (deprecated) ajv's draft-07 lacks
  return new Ajv({ allErrors: true, strict: false });
}

function explain(validate: ValidateFunction): string {
  return (validate.errors ?? [])
    .map((e) => `${e.instancePath || '/'} ${e.message}${e.params ? ' ' + JSON.stringify(e.params) : ''}`)
    .join('\n');
}

// ---- the files, read once

const composeRaw = yamlDocs(path.join(DEPLOY, 'compose.yaml'))[0]!;
const composeVars = dotenv(path.join(DEPLOY, '.env.example'));
const compose = interpolateDeep(composeRaw, composeVars) as Obj;
const composeServices = compose.services as Record<string, Obj>;
const appServices = Object.entries(composeServices).filter(([, s]) => String(s.image ?? '').split(':')[0] === IMAGE);

const k8sFiles = yamlFiles(K8S);
const manifests = k8sFiles.flatMap((f) => yamlDocs(f).map((doc) => ({ file: path.basename(f), doc })));
const byKind = (kind: string) => manifests.filter((m) => m.doc.kind === kind).map((m) => m.doc);
const configMaps = byKind('ConfigMap');
const secrets = byKind('Secret');
const deployments = byKind('Deployment');
const workloads = [...deployments, ...byKind('Job')];
const appContainers = workloads.flatMap((w) =>
  (w.spec.template.spec.containers as Obj[]).map((c) => ({ workload: w, c })),
);
const deployment = (component: string) =>
  deployments.find((d) => d.spec.template.metadata.labels['app.kubernetes.io/component'] === component)!;

/** A container's environment as the kubelet would give it, with the example Secret's values. */
function containerEnv(c: Obj): Record<string, string> {
  const env: Record<string, string> = {};
  const source = (kind: 'ConfigMap' | 'Secret', name: string): Record<string, string> => {
    const found = (kind === 'ConfigMap' ? configMaps : secrets).find((m) => m.metadata.name === name);
    if (!found) throw new Error(`${c.name}: no ${kind} ${name} in deploy/k8s`);
    return { ...found.data, ...found.stringData };
  };
  for (const from of (c.envFrom ?? []) as Obj[]) {
    Object.assign(
      env,
      from.configMapRef ? source('ConfigMap', from.configMapRef.name) : source('Secret', from.secretRef.name),
    );
  }
  for (const e of (c.env ?? []) as Obj[]) {
    if (e.value !== undefined) env[e.name] = e.value;
    else {
      const ref = e.valueFrom.secretKeyRef ?? e.valueFrom.configMapKeyRef;
      const value = source(e.valueFrom.secretKeyRef ? 'Secret' : 'ConfigMap', ref.name)[ref.key];
      if (value === undefined) throw new Error(`${c.name}: ${e.name} refers to a missing key ${ref.name}/${ref.key}`);
      env[e.name] = value;
    }
  }
  return env;
}

/** The image's ENV (Dockerfile) under a container's own: what the process sees. */
const IMAGE_ENV: Record<string, string> = { RENDER_FARM_DATA_DIR: '/data', HOST: '0.0.0.0', PORT: '8080' };

function configOf(env: Record<string, string>): Config {
  return loadConfig({}, { ...IMAGE_ENV, ...env });
}

const api = useTestApi({ webhookConcurrency: 0 });

/** A probe's path answers 200 from the real API. */
async function expectRoute(probePath: string): Promise<void> {
  const res = await api.call('GET', probePath);
  expect(res.status, `GET ${probePath}`).toBe(200);
}

describe('deploy/ files (static checks: nothing here runs Docker or Kubernetes)', () => {
  it('every YAML file under deploy/ parses without errors or warnings', () => {
    const files = yamlFiles(DEPLOY);
    expect(files.map((f) => path.relative(DEPLOY, f)).sort()).toEqual(
      [
        'compose.yaml',
        ...[
          'config.yaml',
          'kustomization.yaml',
          'migrate-job.yaml',
          'secret.example.yaml',
          'serve.yaml',
          'worker-autoscaling.yaml',
          'worker.yaml',
        ].map((f) => `k8s/${f}`),
      ].sort(),
    );
    for (const f of files) expect(yamlDocs(f).length, f).toBeGreaterThan(0);
  });

  describe('compose.yaml', () => {
    it('is valid under the Compose Specification schema', () => {
      const { $schema: _meta, ...schema } = JSON.parse(
        readFileSync('test/deploy/schemas/compose-spec/compose-spec.json', 'utf8'),
      ) as Obj;
      const validate = ajv().compile(schema);
      expect(validate(compose), explain(validate)).toBe(true);
      // the schema catches a misspelt key: the check can fail
      expect(validate({ services: { serve: { image: IMAGE, stop_grace_periods: '90s' } } })).toBe(false);
    });

    it('has PostgreSQL, MinIO with its bucket, the migration, 2 serves and N workers, all from the Dockerfile', () => {
      expect(Object.keys(composeServices).sort()).toEqual([
        'migrate',
        'minio',
        'minio-bucket',
        'postgres',
        'proxy',
        'serve',
        'worker',
      ]);
      expect(appServices.map(([name]) => name).sort()).toEqual(['migrate', 'serve', 'worker']);
      for (const [, s] of appServices) expect(s.build).toEqual({ context: '..', dockerfile: 'Dockerfile' });
      expect(readFileSync(path.resolve(DEPLOY, composeServices.serve!.build.context, 'Dockerfile'), 'utf8')).toMatch(
        /ENTRYPOINT \["node", "bin\/render-farm"\]/,
      );
      expect(composeServices.serve!.deploy.replicas).toBe(2);
      expect(Number(composeServices.worker!.deploy.replicas)).toBeGreaterThanOrEqual(1);
      expect(composeServices['minio-bucket']!.command.join(' ')).toMatch(/mc mb --ignore-existing farm\/render-farm/);
    });

    it('runs real CLI commands, sets only known settings, and the example values load', async () => {
      const program = await buildFullProgram();
      const commands = Object.fromEntries(
        appServices.map(([name, s]) => [name, cliCommand(program, s.command as string[])]),
      );
      expect(commands).toEqual({ migrate: 'db migrate', serve: 'serve', worker: 'worker' });
      for (const [name, s] of appServices) {
        const env = s.environment as Record<string, string>;
        expect(
          Object.keys(env).filter((k) => !KNOWN_ENV.has(k)),
          name,
        ).toEqual([]);
        const cfg = configOf(env);
        expect(cfg.databaseUrl, name).toMatch(/@postgres:5432\/render$/);
        if (name !== 'migrate')
          expect(cfg.storageUrl, name).toBe(
            `s3://${composeServices['minio-bucket']!.command.join(' ').match(/mc mb --ignore-existing farm\/([\w-]+)/)![1]}`,
          );
      }
      // a required variable left unset stops compose with a message (the check can fail)
      expect(() => interpolateDeep(composeRaw, {})).toThrow(/POSTGRES_PASSWORD is required/);
    });

    it("gives a worker longer than its drain to stop, and checks serve's health on a real route", async () => {
      const worker = composeServices.worker!;
      const drain = configOf(worker.environment).drainTimeoutSeconds;
      expect(durationSeconds(worker.stop_grace_period)).toBeGreaterThanOrEqual(
        drain + RELEASE_AFTER_DRAIN_S + MIN_MARGIN_S,
      );
      const serve = composeServices.serve!;
      const test = (serve.healthcheck.test as string[]).join(' ');
      const url = /http:\/\/127\.0\.0\.1:(\d+)(\/[\w/-]*)/.exec(test);
      expect(url, test).not.toBeNull();
      expect(Number(url![1])).toBe(configOf(serve.environment).port);
      await expectRoute(url![2]!);
    });
  });

  describe('Kubernetes manifests (deploy/k8s)', () => {
    it('are known kinds whose fields match the Kubernetes and KEDA APIs, with no namespace', () => {
      const subset = JSON.parse(readFileSync('test/deploy/schemas/k8s-subset.json', 'utf8')) as Obj;
      const v = ajv();
      const kinds = new Map<string, ValidateFunction>(
        Object.entries(subset.kinds as Obj).map(([k, s]) => [k, v.compile({ ...s, definitions: subset.definitions })]),
      );
      for (const { file, doc } of manifests) {
        const validate = kinds.get(`${doc.apiVersion}/${doc.kind}`);
        expect(validate, `${file}: unknown kind ${doc.apiVersion}/${doc.kind}`).toBeDefined();
        expect(validate!(doc), `${file} ${doc.kind} ${doc.metadata?.name}:\n${explain(validate!)}`).toBe(true);
      }
      const seen = manifests.map((m) => m.doc.kind).sort();
      expect(seen).toEqual([
        'ConfigMap',
        'Deployment',
        'Deployment',
        'Job',
        'Kustomization',
        'PodDisruptionBudget',
        'ScaledObject',
        'Secret',
        'Service',
      ]);
      // a misplaced field fails (the check can fail)
      const worker = structuredClone(deployment('worker'));
      worker.spec.terminationGracePeriodSeconds = 90;
      expect(kinds.get('apps/v1/Deployment')!(worker)).toBe(false);
    });

    it('kustomization.yaml lists every manifest but the Secret example', () => {
      const k = byKind('Kustomization')[0]!;
      expect([...k.resources].sort()).toEqual(
        k8sFiles
          .map((f) => path.basename(f))
          .filter((f) => f !== 'kustomization.yaml' && f !== 'secret.example.yaml')
          .sort(),
      );
      expect(k.images.map((i: Obj) => i.name)).toEqual([IMAGE]);
    });

    it('the Secret example holds placeholders only', () => {
      const values = secrets.flatMap((s) => Object.values({ ...s.data, ...s.stringData }) as string[]);
      expect(values.length).toBeGreaterThan(0);
      for (const value of values) expect(value).toMatch(/CHANGE-ME/);
    });

    it('every container runs the image with a real CLI command, known settings, and a config that loads', async () => {
      const program = await buildFullProgram();
      const commands = Object.fromEntries(
        appContainers.map(({ workload, c }) => [workload.metadata.name, cliCommand(program, c.args)]),
      );
      expect(commands).toEqual({
        'render-farm-migrate': 'db migrate',
        'render-farm-serve': 'serve',
        'render-farm-worker': 'worker',
      });
      for (const { workload, c } of appContainers) {
        const where = `${workload.metadata.name}/${c.name}`;
        expect(c.image, where).toBe(IMAGE);
        // the image's ENTRYPOINT runs the CLI: `command` would replace it
        expect(c.command, where).toBeUndefined();
        const env = containerEnv(c);
        expect(
          Object.keys(env).filter((k) => !KNOWN_ENV.has(k)),
          where,
        ).toEqual([]);
        expect(configOf(env).databaseUrl, where).toMatch(/^postgres:\/\//);
      }
      for (const m of [...configMaps, ...secrets]) {
        const keys = Object.keys({ ...m.data, ...m.stringData });
        expect(
          keys.filter((k) => !KNOWN_ENV.has(k)),
          `${m.kind} ${m.metadata.name}`,
        ).toEqual([]);
      }
    });

    it("serve's probes ask real routes on its port, and the Service reaches it", async () => {
      const serve = deployment('serve');
      const c = serve.spec.template.spec.containers[0];
      const port = (ref: string | number) =>
        typeof ref === 'number' ? ref : c.ports.find((p: Obj) => p.name === ref)?.containerPort;
      expect(c.ports.map((p: Obj) => p.containerPort)).toEqual([configOf(containerEnv(c)).port]);
      const probes = [c.readinessProbe, c.livenessProbe].filter(Boolean) as Obj[];
      expect(c.readinessProbe.httpGet.path).toBe('/health');
      for (const p of probes) {
        const target = p.httpGet ?? p.tcpSocket;
        expect(port(target.port), JSON.stringify(p)).toBe(c.ports[0].containerPort);
        if (p.httpGet) await expectRoute(p.httpGet.path);
      }
      const service = byKind('Service')[0]!;
      expect(service.spec.selector).toEqual(serve.spec.template.metadata.labels);
      expect(port(service.spec.ports[0].targetPort)).toBe(c.ports[0].containerPort);
      for (const d of [...deployments, ...byKind('PodDisruptionBudget')]) {
        const owner =
          d.kind === 'Deployment' ? d : deployment(d.spec.selector.matchLabels['app.kubernetes.io/component']);
        expect(d.spec.selector.matchLabels, d.metadata.name).toEqual(owner.spec.template.metadata.labels);
      }
    });

    it('gives a worker pod longer than its drain to stop', () => {
      const worker = deployment('worker');
      const drain = configOf(containerEnv(worker.spec.template.spec.containers[0])).drainTimeoutSeconds;
      expect(worker.spec.template.spec.terminationGracePeriodSeconds).toBeGreaterThanOrEqual(
        drain + RELEASE_AFTER_DRAIN_S + MIN_MARGIN_S,
      );
      expect(byKind('Job')[0]!.spec.template.spec.restartPolicy).toBe('OnFailure');
    });
  });

  describe('KEDA ScaledObject', () => {
    const scaled = () => byKind('ScaledObject')[0]!;
    const trigger = () => scaled().spec.triggers[0] as Obj;

    it('scales the worker Deployment, one pod per RENDER_FARM_WORKER_CONCURRENCY jobs, connecting as the worker does', () => {
      const worker = deployment('worker');
      const c = worker.spec.template.spec.containers[0];
      expect(scaled().spec.scaleTargetRef.name).toBe(worker.metadata.name);
      expect(trigger().type).toBe('postgresql');
      expect(Number(trigger().metadata.targetQueryValue)).toBe(configOf(containerEnv(c)).workerConcurrency);
      expect(containerEnv(c)[trigger().metadata.connectionFromEnv]).toMatch(/^postgres(ql)?:\/\//);
      expect(scaled().spec.minReplicaCount).toBeLessThanOrEqual(scaled().spec.maxReplicaCount);
    });

    it("counts the tasks a render worker runs (every queue task but the serve's webhook deliveries)", () => {
      const list = /identifier IN \(([^)]*)\)/.exec(trigger().metadata.query);
      expect(list).not.toBeNull();
      const named = list![1]!.split(',').map((s) => s.trim().replace(/^'|'$/g, ''));
      const workerTasks = (Object.keys(TASKS) as TaskName[]).filter((t) => t !== 'webhook');
      expect(named.sort()).toEqual(workerTasks.sort());
    });

    it("its query runs on graphile-worker's schema and counts runnable and running worker jobs only", async () => {
      const db = api.t.db;
      await installQueue(db.pool);
      const query = trigger().metadata.query as string;
      const count = async () => (await sql.raw<{ count: number }>(query).execute(db.db)).rows[0]!.count;
      expect(await count()).toBe(0);
      const uuid = '00000000-0000-4000-8000-000000000000';
      await addJobRows(db.db, [
        // runnable now: counts
        { identifier: 'render', payload: { renderId: uuid }, key: 'k-runnable', priority: 5, max_attempts: 3 },
        // running on its last attempt (graphile counted the attempt when it took the job): counts
        {
          identifier: 'render-assemble',
          payload: { renderId: uuid, plan: uuid },
          key: 'k-running',
          priority: 0,
          max_attempts: 3,
        },
        // backing off before a retry (run_at ahead): not yet
        {
          identifier: 'render-chunk',
          payload: { renderId: uuid, plan: uuid, idx: 0 },
          key: 'k-later',
          priority: 5,
          max_attempts: 3,
        },
        // attempts used up, not locked: failed, never runs again
        { identifier: 'thumbnail', payload: { partIds: ['p'] }, key: 'k-failed', priority: 100, max_attempts: 3 },
        // a serve's job, not a worker's
        { identifier: 'webhook', payload: { deliveryId: uuid }, key: 'k-webhook', priority: 0, max_attempts: 10 },
      ]);
      await sql`UPDATE graphile_worker._private_jobs SET locked_at = now(), locked_by = 'test', attempts = max_attempts WHERE key = 'k-running'`.execute(
        db.db,
      );
      await sql`UPDATE graphile_worker._private_jobs SET run_at = now() + interval '1 hour', attempts = 1 WHERE key = 'k-later'`.execute(
        db.db,
      );
      await sql`UPDATE graphile_worker._private_jobs SET attempts = max_attempts, last_error = 'x' WHERE key = 'k-failed'`.execute(
        db.db,
      );
      expect(await count()).toBe(2);
      // the later one becomes due
      await sql`UPDATE graphile_worker._private_jobs SET run_at = now() - interval '1 second' WHERE key = 'k-later'`.execute(
        db.db,
      );
      expect(await count()).toBe(3);
    });
  });
});
