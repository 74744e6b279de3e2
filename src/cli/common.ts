/** Helpers shared by the command files: global options -> config, database lifetime. */
import type { Command } from 'commander';
import { loadConfig, type Config } from '../config.js';
import { UsageError } from './errors.js';
import { settingValues } from './setting-flags.js';

/**
 * The config for a command: defaults < env < the setting flags of the root program and the
 * command (setting-flags.ts). A bad value throws ConfigError: a user error, exit 2.
 */
export function configFor(cmd: Command): Config {
  return loadConfig(settingValues(cmd));
}

/** Opens the database (migrated), runs fn, always closes (stops embedded Postgres if we started it). */
export async function withDb<T>(cfg: Config, fn: (db: import('../db/database.js').Db) => Promise<T>): Promise<T> {
  const { openDatabase } = await import('../db/database.js');
  const db = await openDatabase(cfg, { migrate: true, log: debugLog(cfg) });
  try {
    return await fn(db);
  } finally {
    await db.close();
  }
}

/**
 * withDb for commands that only read the farm (list, show, stats): a data dir that holds no farm
 * is an error naming it (exit 2), never created with an empty cluster (db/existing-data-dir.ts).
 */
export async function withExistingDb<T>(cfg: Config, fn: (db: import('../db/database.js').Db) => Promise<T>): Promise<T> {
  const { requireExistingDataDir } = await import('../db/existing-data-dir.js');
  await requireExistingDataDir(cfg);
  return withDb(cfg, fn);
}

export function debugLog(cfg: Config): (line: string) => void {
  return cfg.logLevel === 'debug' ? (line) => process.stderr.write(`[pg] ${line}\n`) : () => {};
}

/** Prints JSON for scripts. */
export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

/** Parses an integer flag or throws a usage error naming it. */
export function intFlag(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max) throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got "${value}"`);
  return n;
}

/**
 * Checks a flag that takes one of a few values; the usage error echoes what was typed and
 * lists the choices, so a typo is seen at once (`--format sprit`).
 */
export function choiceFlag<T extends string>(name: string, value: string | undefined, allowed: readonly T[]): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value)) throw new UsageError(`--${name} must be one of ${allowed.join(', ')}, got "${value}"`);
  return value as T;
}

/** choiceFlag for a comma list (`--formats video,sprite`): each value checked, the bad ones echoed; duplicates dropped. */
export function choiceListFlag<T extends string>(name: string, value: string, allowed: readonly T[]): T[] {
  const values = value.split(',').map((s) => s.trim()).filter(Boolean);
  const bad = values.filter((v) => !(allowed as readonly string[]).includes(v));
  if (bad.length || !values.length) {
    throw new UsageError(`--${name} takes a comma list of ${allowed.join(', ')}, got "${bad.length ? bad.join(',') : value}"`);
  }
  return [...new Set(values)] as T[];
}

/** Where an unknown part ID sends the user: the command that lists part IDs. */
export const CLI_PART_LISTING = 'see: render-farm catalog parts --category <category> [--search <text>]';
