/**
 * The generated references (docs/reference/configuration.md, docs/reference/cli.md) are what
 * scripts/gen-reference.ts writes from the code now: a setting or a flag added, renamed or
 * re-described without regenerating them fails here, naming the command that fixes it.
 */
import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { configurationReference, cliReference, REFERENCE_FILES, references } from '../../scripts/gen-reference.js';
import { configSchema, ENV_NAMES } from '../../src/config.js';

const FIX = 'stale: run `npm run docs:reference` and commit the result';

describe('generated references', () => {
  it('the committed files are what the generator writes from the code', async () => {
    const fresh = await references();
    for (const [which, file] of Object.entries(REFERENCE_FILES) as [keyof typeof REFERENCE_FILES, string][]) {
      expect(readFileSync(file, 'utf8'), `${file} is ${FIX}`).toBe(fresh[which]);
    }
  });

  it('the configuration reference has a row, an env name and a description for every setting', async () => {
    const doc = await configurationReference();
    for (const key of Object.keys(configSchema.shape) as (keyof typeof ENV_NAMES)[]) {
      const row = doc.split('\n').find((l) => l.startsWith(`| \`${key}\` |`));
      expect(row, key).toBeDefined();
      expect(row).toContain(`\`${ENV_NAMES[key]}\``);
      // the last cell, the description, is never empty
      expect(row!.split(' | ').at(-1)!.replace(/\|$/, '').trim().length, key).toBeGreaterThan(3);
    }
  });

  it('the CLI reference has a section for every command and sub-command, with their flags', async () => {
    const doc = await cliReference();
    for (const heading of [
      '## `render-farm up`',
      '## `render-farm jobs list`',
      '## `render-farm pregen run`',
      '## `render-farm db migrate`',
    ]) {
      expect(doc).toContain(heading);
    }
    expect(doc).toContain('`--concurrency <n>`');
    expect(doc).toContain('env RENDER_FARM_WORKER_CONCURRENCY');
  });
});
