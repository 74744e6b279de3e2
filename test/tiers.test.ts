/**
 * Each test file sits in a tier that allows what it uses (test/tiers.ts, test/tier-usage.ts): a
 * unit file imports no database, browser or child process; a db file no browser or child process.
 */
import { existsSync, globSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { ALL, DB, UNIT, type Tier } from './tiers.js';
import { LAUNCHERS, usage, type Need } from './tier-usage.js';

const files = ALL.flatMap((g) => globSync(g)).sort();
const inList = (list: readonly string[], f: string) => list.some((g) => path.matchesGlob(f, g));
const tierOf = (f: string): Tier => (inList(UNIT, f) ? 'unit' : inList(DB, f) ? 'db' : 'render');
const ALLOWED: Record<Tier, Need[]> = { unit: [], db: ['db'], render: ['db', 'render'] };

describe('test tiers', () => {
  it('finds the suite', () => {
    expect(files.length).toBeGreaterThan(100);
  });

  it('lists each file in at most one tier, and every entry names a file', () => {
    expect(files.filter((f) => inList(UNIT, f) && inList(DB, f))).toEqual([]);
    const unmatched = [...UNIT, ...DB].filter((g) => !files.some((f) => path.matchesGlob(f, g)));
    expect(unmatched).toEqual([]);
  });

  it('names launchers that exist (a moved src module must be renamed in LAUNCHERS too)', () => {
    const missing = Object.keys(LAUNCHERS).filter((m) => !['.ts', '.tsx'].some((ext) => existsSync(m + ext)));
    expect(missing).toEqual([]);
  });

  it('sees what the helpers start', () => {
    // the scanner itself: without these it would pass every file
    expect([...usage('test/helpers/cli.ts').needs]).toContain('render');
    expect([...usage('test/helpers/queue-db.ts').needs]).toEqual(['db']);
    expect([...usage('test/helpers/api-worker.ts').needs].sort()).toEqual(['db', 'render']);
    expect([...usage('test/model/css-color.test.ts').needs]).toEqual([]);
  });

  it('puts no file in a tier that does not allow what it uses', () => {
    const wrong = files.flatMap((f) => {
      const tier = tierOf(f);
      const u = usage(f);
      const extra = [...u.needs].filter((n) => !ALLOWED[tier].includes(n));
      return extra.length
        ? [
            `${f} is in the ${tier} tier but uses ${extra.join(' and ')}: ${u.reasons.join('; ')} (move it in test/tiers.ts)`,
          ]
        : [];
    });
    expect(wrong).toEqual([]);
  });
});
