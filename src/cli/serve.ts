/** `render-farm serve`: the HTTP API. */
import type { Command } from 'commander';
import { configFor, subcommand } from './common.js';
import { addSettingOptions } from './setting-flags.js';
import { catchStopSignals, runUntilSignal, StoppedBySignal } from './signals.js';
import type { RunningServer } from '../api/server.js';

export default function register(program: Command): void {
  const serve = subcommand(program, 'serve', {
    description: 'Run the HTTP API (migrates the database on start; seeds the demo catalog into an empty one).',
    examples: [
      'render-farm serve                                   # embedded PostgreSQL in ./.render-farm',
      'DATABASE_URL=postgres://u:p@db/render render-farm serve --host 0.0.0.0 --port 8080',
    ],
  });
  addSettingOptions(serve, ['port', 'host', 'publicBaseUrl']).action(async (_opts, cmd: Command) => {
    const cfg = configFor(cmd);
    // a taken port fails in a moment, before the database is opened and migrated
    await (await import('../api/port-check.js')).assertApiPortFree(cfg);
    // before the server (and an embedded PostgreSQL) starts: a signal during start-up stops it too
    const signals = catchStopSignals({
      first: (s) => `${s} received, shutting down`,
      second: (s) => `${s} again: stopping now`,
    });
    let server: RunningServer | null = null;
    try {
      const { startServer } = await import('../api/server.js');
      server = await startServer(cfg);
      signals.throwIfStopping();
      process.stdout.write(`render-farm API listening on ${server.url} (docs: ${server.url}/api-docs)\n`);
      const running = server;
      server = null; // runUntilSignal closes it from here on
      await runUntilSignal(signals, () => running.close());
    } catch (err) {
      // start-up failed or was cut short by a signal
      await server?.close();
      if (!(err instanceof StoppedBySignal)) throw err;
    } finally {
      signals.dispose();
    }
  });
}
