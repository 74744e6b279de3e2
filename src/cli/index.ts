/**
 * The CLI: declares the commands (each in its own file, loading its implementation lazily),
 * maps errors to exit codes (errors.ts): 0 ok, 1 failure, 2 usage error.
 */
import { Command, CommanderError } from 'commander';
import { loadConfig } from '../config.js';
import { VERSION } from '../version.js';
import { reportError } from './errors.js';
import { addSettingOptions } from './setting-flags.js';

type Register = { default: (p: Command) => void };

/** The command files, in help order. Literal specifiers: the compiled dist/ and tsx resolve them alike. */
const COMMANDS: (() => Promise<Register>)[] = [
  () => import('./up.js'),
  () => import('./serve.js'),
  () => import('./worker.js'),
  () => import('./render.js'),
  () => import('./token.js'),
  () => import('./keys.js'),
  () => import('./catalog.js'),
  () => import('./builds.js'),
  () => import('./models.js'),
  () => import('./jobs.js'),
  () => import('./workers.js'),
  () => import('./webhooks.js'),
  () => import('./doctor.js'),
  () => import('./top.js'),
  () => import('./db.js'),
  () => import('./pregen.js'),
  () => import('./cache.js'),
];

export function buildProgram(): Command {
  const program = new Command('render-farm')
    .description('Render farm for 360-degree turntable videos and sprite sheets of PC builds.')
    .version(VERSION, '-V, --version', 'print the version')
    .showHelpAfterError('(add --help for usage)')
    // every sub-command's --help lists these too (they are accepted before or after the command)
    .configureHelp({ showGlobalOptions: true })
    .exitOverride();
  addSettingOptions(program, ['dataDir', 'databaseUrl', 'embeddedPgPort', 'logLevel']);
  program.addHelpText(
    'after',
    `
Examples:
  $ render-farm up                          # API + worker on embedded defaults, prints a demo API key
  $ render-farm token --customer acme --scopes data:read
  $ render-farm catalog import ./open-db    # import BuildCores OpenDB records
  $ render-farm render --share-code DEMO-GLASS --out ./out`,
  );
  return program;
}

/** The program with every command registered (what main parses; tests walk its tree). */
export async function buildFullProgram(): Promise<Command> {
  const program = buildProgram();
  for (const mod of await Promise.all(COMMANDS.map((load) => load()))) mod.default(program);
  return program;
}

export async function main(argv: string[]): Promise<number> {
  const program = await buildFullProgram();
  // every sub-command inherits the exit override so usage errors come back here
  const override = (cmd: Command): void => {
    cmd.exitOverride();
    cmd.showHelpAfterError('(add --help for usage)');
    cmd.commands.forEach(override);
  };
  program.commands.forEach(override);
  try {
    await program.parseAsync(argv);
    return 0;
  } catch (err) {
    if (err instanceof CommanderError) {
      if (err.code === 'commander.helpDisplayed' || err.code === 'commander.version' || err.exitCode === 0) return 0;
      return 2;
    }
    return reportError(
      err,
      (t) => void process.stderr.write(t),
      debugLevel(program),
      (t) => void process.stdout.write(t),
    );
  }
}

/** Whether --log-level or LOG_LEVEL asks for debug output (a broken config just means no). */
function debugLevel(program: Command): boolean {
  try {
    return loadConfig({ logLevel: program.opts<{ logLevel?: string }>().logLevel }).logLevel === 'debug';
  } catch {
    return false;
  }
}
