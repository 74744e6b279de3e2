/**
 * Import benchmark: unpacks the full OpenDB tarball into a temp folder, imports it into a
 * fresh database (a throwaway embedded PostgreSQL, or a temporary database on DATABASE_URL),
 * then imports it again to time the idempotent re-import.
 *
 *   npm run bench:import [-- path/to/opendb-renderable.tar.gz]
 */
import { execFile } from 'node:child_process';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { importOpenDb, type ImportSummary } from '../src/catalog/importer.js';
import { openDatabase } from '../src/db/database.js';
import { scratchDb, type ScratchDb } from './scratch-db.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const tarball = path.resolve(process.argv[2] ?? path.join(here, '../../shared/opendb/opendb-renderable.tar.gz'));

function table(summary: ImportSummary): string {
  const head = ['category', 'records', 'imported', 'skipped', 'seconds', 'parts/s'];
  const rows = summary.categories.map((c) => [
    c.category,
    String(c.read),
    String(c.imported),
    String(c.skipped),
    (c.elapsedMs / 1000).toFixed(2),
    String(c.partsPerSecond),
  ]);
  const t = summary.total;
  rows.push([
    'total',
    String(t.read),
    String(t.imported),
    String(t.skipped),
    (t.elapsedMs / 1000).toFixed(2),
    String(t.partsPerSecond),
  ]);
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (r: string[]) => r.map((v, i) => (i === 0 ? v.padEnd(widths[i]!) : v.padStart(widths[i]!))).join('  ');
  return [line(head), ...rows.map(line)].join('\n');
}

async function main(): Promise<void> {
  await fs.access(tarball).catch(() => {
    throw new Error(`tarball not found: ${tarball} (pass its path as the first argument)`);
  });
  const tmp = await fs.mkdtemp(path.join(os.tmpdir(), 'render-farm-bench-'));
  // mkdtemp makes it 0700; run as root, the embedded server's own OS user must get in
  await fs.chmod(tmp, 0o755);
  let scratch: ScratchDb | undefined;
  try {
    let t = Date.now();
    await promisify(execFile)('tar', ['xzf', tarball, '-C', tmp]);
    console.log(`unpacked ${path.basename(tarball)} in ${((Date.now() - t) / 1000).toFixed(1)} s`);

    scratch = await scratchDb(path.join(tmp, 'data'), 'bench');
    const { cfg } = scratch;
    t = Date.now();
    const db = await openDatabase(cfg, { migrate: true });
    console.log(
      `database ready (${db.embedded ? 'embedded' : 'DATABASE_URL'}) in ${((Date.now() - t) / 1000).toFixed(1)} s\n`,
    );
    try {
      let lastLine = 0;
      const first = await importOpenDb(db, tmp, {
        onProgress: (p) => {
          if (Date.now() - lastLine > 2000) {
            lastLine = Date.now();
            console.log(`  ${p.overallDone}/${p.overallTotal} (${p.category})`);
          }
        },
      });
      console.log(`\nfirst import\n${table(first)}`);
      for (const r of first.total.reasons)
        console.log(`  skipped ${r.count}: ${r.reason} (e.g. ${r.examples.join(', ')})`);
      const again = await importOpenDb(db, tmp);
      console.log(`\nre-import\n${table(again)}`);
      console.log(
        `  inserted ${again.total.inserted}, updated ${again.total.updated}, unchanged ${again.total.unchanged}\n`,
      );
      const verdict = first.total.elapsedMs < 60_000 ? 'under' : 'OVER';
      console.log(
        `full import: ${first.total.imported} parts in ${(first.total.elapsedMs / 1000).toFixed(1)} s (${verdict} the 60 s target); re-import ${(again.total.elapsedMs / 1000).toFixed(1)} s`,
      );
    } finally {
      await db.close();
    }
  } finally {
    await scratch?.drop();
    await fs.rm(tmp, { recursive: true, force: true });
  }
}

main().catch((err: unknown) => {
  console.error(`bench:import failed: ${(err as Error).message ?? err}`);
  process.exitCode = 1;
});
