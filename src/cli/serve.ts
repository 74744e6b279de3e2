/** `render-farm serve`: the HTTP API. */
import type { Command } from 'commander';
import { configFor } from './common.js';
import { addSettingOptions } from './setting-flags.js';
import { runUntilSignal } from './signals.js';

export default function register(program: Command): void {
  const serve = program
    .command('serve')
    .description('Run the HTTP API (migrates the database on start; seeds the demo catalog into an empty one).');
  addSettingOptions(serve, ['port', 'host', 'publicBaseUrl'])
    .addHelpText(
      'after',
      `
Examples:
  $ render-farm serve                                   # embedded PostgreSQL in ./.render-farm
  $ DATABASE_URL=postgres://u:p@db/render render-farm serve --host 0.0.0.0 --port 8080`,
    )
    .action(async (_opts, cmd: Command) => {
      const cfg = configFor(cmd);
      // a taken port fails in a moment, before the database is opened and migrated
      await (await import('../api/port-check.js')).assertApiPortFree(cfg);
      const { startServer } = await import('../api/server.js');
      const server = await startServer(cfg);
      process.stdout.write(`render-farm API listening on ${server.url} (docs: ${server.url}/api-docs)\n`);
      await runUntilSignal(() => server.close());
    });
}
