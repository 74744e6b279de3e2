/**
 * Whether the API can listen where it is configured to, asked before `up` or `serve` touches
 * the database: a taken port used to fail only after an embedded cluster was initialised,
 * migrated and seeded (seconds to minutes, and a data dir left behind). The real listen still
 * reports a port taken in between.
 */
import net from 'node:net';
import type { Config } from '../config.js';
import { UnavailableError } from '../errors.js';
import { renderFarmAt } from '../doctor/ports-check.js';

/** The API port is taken: exit 1, one line naming the port and how to pick another. */
export class PortInUseError extends UnavailableError {
  constructor(message: string) {
    super('port_in_use', message);
    this.name = 'PortInUseError';
  }
}

/** true when `port` on `host` can be listened on; else the error code (EADDRINUSE, EADDRNOTAVAIL, EACCES, ...). */
function tryListen(port: number, host: string): Promise<true | string> {
  return new Promise((resolve) => {
    const srv = net.createServer();
    srv.once('error', (err: NodeJS.ErrnoException) => resolve(err.code ?? err.message));
    srv.listen(port, host, () => srv.close(() => resolve(true)));
  });
}

/** Throws PortInUseError (or, for an address this machine does not have, the reason) unless the API port is free. */
export async function assertApiPortFree(cfg: Pick<Config, 'port' | 'host'>): Promise<void> {
  // port 0: the system picks a free one at listen time
  if (cfg.port === 0) return;
  const free = await tryListen(cfg.port, cfg.host);
  if (free === true) return;
  const pick = `pick another with --port N or PORT=N (--port 0 takes any free one)`;
  if (free === 'EADDRINUSE') {
    const farm = await renderFarmAt(
      cfg.host === '0.0.0.0' || cfg.host === '::' ? '127.0.0.1' : cfg.host,
      cfg.port,
      1_000,
    );
    const by = farm ? `a running render-farm ${farm} (another "up" or "serve")` : 'another program';
    throw new PortInUseError(`port ${cfg.port} on ${cfg.host} is in use by ${by}: ${pick}`);
  }
  if (free === 'EACCES')
    throw new PortInUseError(`port ${cfg.port} on ${cfg.host} needs privileges to listen on (${free}): ${pick}`);
  throw new PortInUseError(
    `cannot listen on ${cfg.host}:${cfg.port} (${free}): check --host/HOST names an address of this machine, or ${pick}`,
  );
}
