/**
 * The control-plane bench's load: renders from many customers submitted at a steady rate
 * through the real API, a share of them repeats of earlier requests (cache hits or renders in
 * flight), and every job polled until it ends, as clients do. Sizes are mixed so that some
 * renders split into chunks (with the default 10 s chunk target and the cost model's estimate:
 * 640x480 and 960x540 cinematic videos split in 2 and 4), the rest render whole.
 */
import { DEMO_BUILDS } from '../../src/catalog/demo-catalog.js';
import { createRng } from '../../farm/src/util/prng.js';

/** One kind of request and its share of the new ones. */
interface Shape {
  share: number;
  body: Record<string, unknown>;
}

export const SHAPES: readonly Shape[] = [
  { share: 0.4, body: { format: 'sprite', width: 256, height: 256, profile: 'fast' } },
  { share: 0.2, body: { format: 'sprite', width: 384, height: 384, profile: 'flat' } },
  { share: 0.2, body: { format: 'video', width: 640, height: 360, profile: 'fast' } },
  { share: 0.12, body: { format: 'video', width: 640, height: 480, profile: 'cinematic' } },
  { share: 0.08, body: { format: 'video', width: 960, height: 540, profile: 'cinematic' } },
];

export interface LoadOptions {
  baseUrl: string;
  /** one API key per customer */
  keys: string[];
  renders: number;
  /** submissions a second */
  rate: number;
  /** share of submissions that repeat an earlier request of this run */
  repeatShare: number;
  pollMs: number;
  /** makes every request of this run distinct from other runs' (the camera zoom's base) */
  salt: number;
  /** give up waiting for the jobs after this long */
  timeoutMs: number;
}

export interface LoadResult {
  jobIds: string[];
  submitted: number;
  /** answered from an earlier render (completed: cached; in flight: reused) */
  repeats: number;
  cached: number;
  completed: number;
  failed: number;
  /** refused submissions and polls (4xx/5xx), by status */
  refused: Record<string, number>;
  submitMs: number[];
  pollMs: number[];
  polls: number;
  /** first submission to the last job's end, seconds */
  wallS: number;
}

function pickShape(r: number): Shape {
  let acc = 0;
  for (const s of SHAPES) {
    acc += s.share;
    if (r < acc) return s;
  }
  return SHAPES[SHAPES.length - 1]!;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, Math.max(0, ms)));

export async function runLoad(o: LoadOptions): Promise<LoadResult> {
  const rand = createRng(o.salt + 1);
  const bodies: Record<string, unknown>[] = [];
  const res: LoadResult = {
    jobIds: [],
    submitted: 0,
    repeats: 0,
    cached: 0,
    completed: 0,
    failed: 0,
    refused: {},
    submitMs: [],
    pollMs: [],
    polls: 0,
    wallS: 0,
  };
  const refuse = (status: number) => (res.refused[String(status)] = (res.refused[String(status)] ?? 0) + 1);
  type Answer = { status: number; json: Record<string, unknown> };
  const failed: Answer = { status: 599, json: {} };
  const call = async (key: string, method: string, url: string, body?: unknown): Promise<Answer> => {
    const r = await fetch(o.baseUrl + url, {
      method,
      headers: { authorization: `Bearer ${key}`, ...(body ? { 'content-type': 'application/json' } : {}) },
      body: body ? JSON.stringify(body) : undefined,
    });
    return { status: r.status, json: (await r.json()) as Record<string, unknown> };
  };

  const started = performance.now();
  let lastEnd = started;
  const deadline = Date.now() + o.timeoutMs;
  /** polls one job until it ends (every pollMs) */
  const follow = async (key: string, jobId: string) => {
    for (;;) {
      await sleep(o.pollMs);
      const t = performance.now();
      const r = await call(key, 'GET', `/render-build/${jobId}`).catch(() => failed);
      res.pollMs.push(performance.now() - t);
      res.polls++;
      if (r.status >= 400) refuse(r.status);
      else if (r.json.status === 'completed' || r.json.status === 'error') {
        if (r.json.status === 'completed') res.completed++;
        else res.failed++;
        lastEnd = performance.now();
        return;
      }
      if (Date.now() > deadline) return;
    }
  };

  const followers: Promise<void>[] = [];
  const submits: Promise<void>[] = [];
  for (let i = 0; i < o.renders; i++) {
    // a steady rate: the i-th submission at i / rate seconds, whatever the earlier ones took
    await sleep(started + (i * 1000) / o.rate - performance.now());
    const key = o.keys[Math.floor(rand() * o.keys.length)]!;
    const repeat = bodies.length > 0 && rand() < o.repeatShare;
    let body: Record<string, unknown>;
    if (repeat) body = bodies[Math.floor(rand() * bodies.length)]!;
    else {
      const build = DEMO_BUILDS[Math.floor(rand() * DEMO_BUILDS.length)]!;
      // a zoom no other request of any run has: every new request is a new render
      body = { parts: build.parts, ...pickShape(rand()).body, cameraZoom: 0.6 + (o.salt * 100_000 + i) * 1e-6 };
      bodies.push(body);
    }
    submits.push(
      (async () => {
        const t = performance.now();
        const r = await call(key, 'POST', '/render-build', body).catch(() => failed);
        res.submitMs.push(performance.now() - t);
        res.submitted++;
        if (r.status >= 400) {
          refuse(r.status);
          return;
        }
        const jobId = String(r.json.job_id);
        res.jobIds.push(jobId);
        if (repeat) res.repeats++;
        if (r.json.cached) {
          res.cached++;
          res.completed++;
          return;
        }
        followers.push(follow(key, jobId));
      })(),
    );
  }
  await Promise.all(submits);
  await Promise.all(followers);
  res.wallS = (lastEnd - started) / 1000;
  return res;
}
