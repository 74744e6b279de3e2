/**
 * A client generated from the served /api-docs/openapi.json works (docs/api.md): the types
 * come from openapi-typescript, an integrator's program (test/fixtures/openapi-client) is
 * compiled against them with tsc --strict and run with openapi-fetch against a real server with
 * a real worker: mint -> getBuild -> renderBuild -> poll getRenderJob -> getArtifact. Everything
 * is written to a temp dir, nothing into the repo.
 */
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import openapiTS, { astToString } from 'openapi-typescript';
import sharp from 'sharp';
import ts from 'typescript';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startApiWithWorker, type ApiWithWorker } from '../helpers/api-worker.js';
import { runProcess } from '../helpers/run-process.js';

const FIXTURE = path.resolve('test/fixtures/openapi-client/render-flow.ts');

/** tsc --strict over the program; the diagnostics as text (empty: it compiles), JavaScript in `outDir`. */
function compile(file: string, outDir: string): string {
  const program = ts.createProgram([file], {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.NodeNext,
    moduleResolution: ts.ModuleResolutionKind.NodeNext,
    types: ['node'],
    outDir,
    // the generated types are checked too: a document a generator turns into broken TypeScript fails here
    skipLibCheck: false,
  });
  const diagnostics = [...ts.getPreEmitDiagnostics(program), ...program.emit().diagnostics];
  return ts.formatDiagnostics(diagnostics, {
    getCanonicalFileName: (f) => f,
    getCurrentDirectory: () => path.dirname(file),
    getNewLine: () => '\n',
  });
}

describe('a client generated from the OpenAPI document', () => {
  let farm: ApiWithWorker;
  let dir: string;

  beforeAll(async () => {
    dir = await fs.mkdtemp(path.join(os.tmpdir(), 'rf-openapi-client-'));
    farm = await startApiWithWorker();
  }, 180_000);
  afterAll(async () => {
    await farm?.close();
    if (dir) await fs.rm(dir, { recursive: true, force: true });
  });

  it('compiles with tsc --strict and renders a sprite through openapi-fetch: mint, submit, poll, download', async () => {
    const { api } = farm;
    const doc = (await api.call('GET', '/api-docs/openapi.json')).json;
    await fs.writeFile(path.join(dir, 'api.d.ts'), astToString(await openapiTS(doc)));
    await fs.copyFile(FIXTURE, path.join(dir, 'render-flow.ts'));
    // an ES module package whose imports (openapi-fetch, @types/node) resolve to this checkout's
    await fs.writeFile(path.join(dir, 'package.json'), JSON.stringify({ type: 'module', private: true }));
    await fs.symlink(path.resolve('node_modules'), path.join(dir, 'node_modules'), 'dir');

    expect(compile(path.join(dir, 'render-flow.ts'), path.join(dir, 'out'))).toBe('');

    const sprite = path.join(dir, 'sprite.webp');
    const run = await runProcess(process.execPath, [
      path.join(dir, 'out', 'render-flow.js'),
      api.url,
      api.key,
      'DEMO-ITX',
      sprite,
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const result = JSON.parse(run.stdout) as {
      job: { status: string; sprite: { columns: number; rows: number; frame_width: number; frame_height: number } };
      contentType: string;
      bytes: number;
    };
    expect(result.job.status).toBe('completed');
    expect(result.contentType).toBe('image/webp');

    // the bytes are the sheet the job describes
    const bytes = await fs.readFile(sprite);
    expect(bytes.length).toBe(result.bytes);
    const meta = await sharp(bytes).metadata();
    const layout = result.job.sprite;
    expect(meta.format).toBe('webp');
    expect([meta.width, meta.height]).toEqual([layout.columns * layout.frame_width, layout.rows * layout.frame_height]);
    expect([layout.frame_width, layout.frame_height]).toEqual([256, 256]);
  }, 300_000);
});
