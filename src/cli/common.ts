/** Helpers shared by the command files: global options -> config, database lifetime. */
import type { Command } from 'commander';
import { loadConfig, type Config } from '../config.js';
import { UsageError } from './errors.js';
import { settingValues } from './setting-flags.js';
import { table } from './table.js';
import type { Db } from '../db/database.js';

/**
 * The config for a command: defaults < env < the setting flags of the root program and the
 * command (setting-flags.ts). A bad value throws ConfigError: a user error, exit 2.
 */
export function configFor(cmd: Command): Config {
  return loadConfig(settingValues(cmd));
}

/** Opens the database (migrated), runs fn, always closes (stops embedded Postgres if we started it). */
export async function withDb<T>(cfg: Config, fn: (db: Db) => Promise<T>): Promise<T> {
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
export async function withExistingDb<T>(cfg: Config, fn: (db: Db) => Promise<T>): Promise<T> {
  const { requireExistingDataDir } = await import('../db/existing-data-dir.js');
  await requireExistingDataDir(cfg);
  return withDb(cfg, fn);
}

export function debugLog(cfg: Config): (line: string) => void {
  return cfg.logLevel === 'debug' ? (line) => process.stderr.write(`[pg] ${line}\n`) : () => {};
}

/** A subcommand's help: its description, options in the order help lists them, `--json` last when it has JSON output, examples. */
export interface SubcommandHelp {
  description: string;
  options?: [flags: string, description: string][];
  json?: boolean;
  /** command lines, shown after the options under "Examples:" */
  examples: string[];
}

/** Declares a subcommand the way every command file does; the caller adds its .action. */
export function subcommand(parent: Command, name: string, help: SubcommandHelp): Command {
  const cmd = parent.command(name).description(help.description);
  for (const [flags, text] of help.options ?? []) cmd.option(flags, text);
  if (help.json) cmd.option('--json', 'machine-readable output');
  return cmd.addHelpText('after', `\nExamples:\n${help.examples.map((e) => `  $ ${e}`).join('\n')}`);
}

/** Prints JSON for scripts. */
export function printJson(value: unknown): void {
  process.stdout.write(JSON.stringify(value, null, 2) + '\n');
}

/** A list command's output: the list as JSON with --json, else `empty` (a line) when there is nothing, else a table. */
export function printList<T>(
  list: T[],
  json: boolean | undefined,
  empty: string,
  header: string[],
  row: (item: T) => string[],
): void {
  if (json) return printJson(list);
  if (!list.length) return void process.stdout.write(empty);
  process.stdout.write(table(header, list.map(row)));
}

/** Parses an integer flag or throws a usage error naming it. */
export function intFlag(name: string, value: string | undefined, min: number, max: number): number | undefined {
  if (value === undefined) return undefined;
  const n = Number(value);
  if (!Number.isInteger(n) || n < min || n > max)
    throw new UsageError(`--${name} must be an integer from ${min} to ${max}, got "${value}"`);
  return n;
}

/**
 * Checks a flag that takes one of a few values; the usage error echoes what was typed and
 * lists the choices, so a typo is seen at once (`--format sprit`).
 */
export function choiceFlag<T extends string>(
  name: string,
  value: string | undefined,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined) return undefined;
  if (!(allowed as readonly string[]).includes(value))
    throw new UsageError(`--${name} must be one of ${allowed.join(', ')}, got "${value}"`);
  return value as T;
}

/** choiceFlag for a comma list (`--formats video,sprite`): each value checked, the bad ones echoed; duplicates dropped. */
export function choiceListFlag<T extends string>(name: string, value: string, allowed: readonly T[]): T[] {
  const values = value
    .split(',')
    .map((s) => s.trim())
    .filter(Boolean);
  const bad = values.filter((v) => !(allowed as readonly string[]).includes(v));
  if (bad.length || !values.length) {
    throw new UsageError(
      `--${name} takes a comma list of ${allowed.join(', ')}, got "${bad.length ? bad.join(',') : value}"`,
    );
  }
  return [...new Set(values)] as T[];
}

/** Where an unknown part ID sends the user: the command that lists part IDs. */
export const CLI_PART_LISTING = 'see: render-farm catalog parts --category <category> [--search <text>]';
