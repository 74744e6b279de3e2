/**
 * The configuration settings as command-line flags (src/config.ts SETTING_FLAGS): commander
 * options with help generated from the setting (env name, default, choices), and the values
 * given read back for loadConfig, which validates them in the one place env values are too.
 */
import { Option, type Command } from 'commander';
import { flagName, SETTING_FLAGS, settingHelp, type ConfigInput, type FlagSetting } from '../config.js';

/** Which setting each generated option sets (configFor reads them; the help test walks them). */
const SETTING_OF = new WeakMap<Option, FlagSetting>();

/** The option for a setting; `what` replaces the start of its help for one command ("API port to check"). */
export function settingOption(key: FlagSetting, what?: string): Option {
  const option = new Option(`${flagName(key)} <${SETTING_FLAGS[key].arg}>`, settingHelp(key, what));
  SETTING_OF.set(option, key);
  return option;
}

/** Adds these settings' options to `cmd`; `what` overrides the help's start per setting. */
export function addSettingOptions(
  cmd: Command,
  keys: readonly FlagSetting[],
  what: Partial<Record<FlagSetting, string>> = {},
): Command {
  for (const key of keys) cmd.addOption(settingOption(key, what[key]));
  return cmd;
}

/** The setting an option sets, or undefined for other options. */
export function settingOf(option: Option): FlagSetting | undefined {
  return SETTING_OF.get(option);
}

/** The settings given as flags to `cmd` and the commands above it; a command's own flag wins over its parent's. */
export function settingValues(cmd: Command): Partial<Record<keyof ConfigInput, unknown>> {
  const values: Partial<Record<keyof ConfigInput, unknown>> = {};
  for (let c: Command | null = cmd; c; c = c.parent) {
    for (const option of c.options) {
      const key = SETTING_OF.get(option);
      const value = key && c.getOptionValue(option.attributeName());
      if (key && value !== undefined && values[key] === undefined) values[key] = value;
    }
  }
  return values;
}
