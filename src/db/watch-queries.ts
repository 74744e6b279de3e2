/**
 * Sees every statement a pool's clients send (kysely's and raw `pool.query` alike), for the
 * tests and the bench that count a request's database round trips. Nothing is wrapped until a
 * caller watches, so the serving path pays nothing for it.
 */
import type pg from 'pg';

/**
 * Calls `onQuery` with the text of each statement sent through `pool` from now on; returns the
 * function that stops watching (and restores the clients). A client is wrapped when it is next
 * checked out, which every query does (kysely checks one out per statement outside a transaction).
 */
export function watchQueries(pool: pg.Pool, onQuery: (text: string) => void): () => void {
  const originals = new Map<pg.PoolClient, pg.PoolClient['query']>();
  const onAcquire = (client: pg.PoolClient) => {
    if (originals.has(client)) return;
    const original = client.query;
    originals.set(client, original);
    const watched = function (this: pg.PoolClient, ...args: unknown[]) {
      const first = args[0] as string | { text?: string } | undefined;
      onQuery(typeof first === 'string' ? first : (first?.text ?? ''));
      return Reflect.apply(original, this, args);
    };
    Reflect.set(client, 'query', watched);
  };
  pool.on('acquire', onAcquire);
  return () => {
    pool.off('acquire', onAcquire);
    for (const [client, original] of originals) Reflect.set(client, 'query', original);
    originals.clear();
  };
}
