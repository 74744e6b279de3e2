/**
 * Configuration flags are declared once (src/config.ts SETTING_FLAGS): every option of the real
 * program tree whose help names an env variable must name one that config reads for that
 * setting, and the default config gives it when neither env nor a flag is set. Env names and
 * defaults are learnt from loadConfig's behaviour, not from the table the help is made from.
 */
import type { Command } from 'commander';
import { describe, expect, it } from 'vitest';
import { buildFullProgram } from '../../src/cli/index.js';
import { settingOf } from '../../src/cli/setting-flags.js';
import { describeSetting, loadConfig, SETTING_FLAGS, type ConfigInput } from '../../src/config.js';

function commands(cmd: Command): Command[] {
  return [cmd, ...cmd.commands.flatMap(commands)];
}

/** The config key that loadConfig fills from env variable `name` (given `value`), or undefined. */
function keyReadFrom(name: string, value: string): string | undefined {
  try {
    const cfg = loadConfig({}, { [name]: value });
    return Object.keys(cfg).find((k) => describeSetting(cfg, k as keyof ConfigInput, '').includes(`(env ${name})`));
  } catch (err) {
    // a value the setting refuses still tells which setting read it
    return new RegExp(`^invalid configuration: (\\w+) \\(env ${name}\\)`).exec((err as Error).message)?.[1];
  }
}

describe('configuration flags', () => {
  it("every help naming an env variable names the one config reads for the flag's setting, and config's default", async () => {
    const defaults = loadConfig({}, {});
    const checked = new Set<string>();
    for (const cmd of commands(await buildFullProgram())) {
      for (const option of cmd.options) {
        const m = /\(env ([A-Z][A-Z0-9_]*)(?:, default ([^;)]+))?[;)]/.exec(option.description);
        const key = settingOf(option);
        const where = `${cmd.name()} ${option.long}`;
        if (!m) {
          expect(key, `${where} sets a setting but its help names no env variable`).toBeUndefined();
          continue;
        }
        const [, env, shown] = m;
        const read = keyReadFrom(env!, shown ?? 'x');
        expect(read, `${where}: config reads no setting from ${env}`).toBeDefined();
        expect(key, `${where}: its help names ${env}, but the option does not set ${read}`).toBe(read);
        const k = read as keyof ConfigInput;
        if (shown === undefined) expect(defaults[k], `${where}: help shows no default`).toBeUndefined();
        else expect(loadConfig({ [k]: shown }, {})[k], `${where}: help says default ${shown}`).toEqual(defaults[k]);
        checked.add(k);
      }
    }
    // every declared setting flag is offered by some command
    expect([...checked].sort()).toEqual(Object.keys(SETTING_FLAGS).sort());
  });
});
