/** `render-farm up`: everything on embedded defaults, with a demo API key to try it. */
import type { Command } from 'commander';
import { configFor } from './common.js';
import { runUntilSignal } from './signals.js';

export default function register(program: Command): void {
  program
    .command('up')
    .description('Start the API on embedded defaults (PostgreSQL in the data dir, demo catalog) and print a demo API key.')
    .option('--port <port>', 'port to listen on (default 8080)')
    .option('--host <host>', 'address to bind (default 127.0.0.1)')
    .addHelpText(
      'after',
      `
Examples:
  $ render-farm up
  $ render-farm up --port 9000 --data-dir /var/lib/render-farm`,
    )
    .action(async (opts: { port?: string; host?: string }, cmd: Command) => {
      const cfg = configFor(cmd, { port: opts.port, host: opts.host, seedDemo: true });
      const { startServer } = await import('../api/server.js');
      const { demoApiKey } = await import('../auth/demo-key.js');
      const server = await startServer(cfg);
      const key = await demoApiKey(server.ctx.db.db, cfg.dataDir);
      process.stdout.write(
        [
          `render-farm is up at ${server.url}`,
          `  API docs:     ${server.url}/api-docs`,
          `  data dir:     ${cfg.dataDir}${server.ctx.db.embedded ? ' (embedded PostgreSQL)' : ''}`,
          `  demo API key: ${key}`,
          '',
          'Try it:',
          `  curl -s -X POST ${server.url}/auth/render-session -H "Authorization: Bearer ${key}" -H 'Content-Type: application/json' -d '{"scopes":["data:read","render:submit","render:status"]}'`,
          '',
          'Press Ctrl-C to stop.',
          '',
        ].join('\n'),
      );
      await runUntilSignal(() => server.close());
    });
}
