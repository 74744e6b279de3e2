/** `render-farm serve`: the HTTP API. */
import type { Command } from 'commander';
import { configFor } from './common.js';
import { runUntilSignal } from './signals.js';

export default function register(program: Command): void {
  program
    .command('serve')
    .description('Run the HTTP API (migrates the database on start; seeds the demo catalog into an empty one).')
    .option('--port <port>', 'port to listen on (env PORT, default 8080; 0 picks a free one)')
    .option('--host <host>', 'address to bind (env HOST, default 127.0.0.1; 0.0.0.0 for all)')
    .option('--public-base-url <url>', 'base of returned URLs behind a proxy (env PUBLIC_BASE_URL)')
    .addHelpText(
      'after',
      `
Examples:
  $ render-farm serve                                   # embedded PostgreSQL in ./.render-farm
  $ DATABASE_URL=postgres://u:p@db/render render-farm serve --host 0.0.0.0 --port 8080`,
    )
    .action(async (opts: { port?: string; host?: string; publicBaseUrl?: string }, cmd: Command) => {
      const cfg = configFor(cmd, { port: opts.port, host: opts.host, publicBaseUrl: opts.publicBaseUrl });
      const { startServer } = await import('../api/server.js');
      const server = await startServer(cfg);
      process.stdout.write(`render-farm API listening on ${server.url} (docs: ${server.url}/api-docs)\n`);
      await runUntilSignal(() => server.close());
    });
}
