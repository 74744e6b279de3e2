/**
 * How captured bytes leave the page: POSTs to the loopback stage server (src/render/stage-server.ts),
 * at most a window of them in flight. The server acknowledges an upload only once its consumer
 * took it, so the window is Node's backpressure on the page and bounds the page's memory.
 */

/** Bodies past this go in pieces (see post). */
const PIECE = 16 * 1024 * 1024;

// bodies go as Blobs: puppeteer enables CDP's Network domain, which copies a typed-array body
// into its request events (through the DevTools pipe: docs/benchmarks.md, "Capture paths"); a Blob's is not
async function send(url: string, body: Blob | Uint8Array<ArrayBuffer>): Promise<void> {
  const res = await fetch(url, { method: 'POST', body: body instanceof Blob ? body : new Blob([body]) });
  if (!res.ok) throw new Error((await res.text()) || url + ' refused: HTTP ' + res.status);
}

/**
 * POSTs `body` to `url`. A large typed array goes in pieces of at most PIECE bytes, one after
 * another (`?offset=&total=`): Chromium's blob store refuses blobs past its memory quota
 * ("Failed to fetch"), seen with two or three 89 MB sprite rows (1365 px frames) in flight at
 * once on a 24 GiB machine; pieces keep an upload window's bytes at window x PIECE.
 */
export async function post(url: string, body: Blob | Uint8Array<ArrayBuffer>): Promise<void> {
  if (body instanceof Blob || body.byteLength <= PIECE) return send(url, body);
  for (let at = 0; at < body.byteLength; at += PIECE) {
    await send(
      url + '?offset=' + at + '&total=' + body.byteLength,
      body.subarray(at, Math.min(at + PIECE, body.byteLength)),
    );
  }
}

export interface Uploads {
  /** starts `work`, then waits while `limit` uploads are in flight; throws the first failure */
  add(work: () => Promise<void>): Promise<void>;
  /** waits for every upload; throws the first failure */
  drain(): Promise<void>;
}

/** At most `limit` uploads at once; add() waits for room (backpressure from Node). */
export function uploads(limit: number): Uploads {
  const inflight = new Set<Promise<void>>();
  let failure: unknown = null;
  return {
    async add(work) {
      if (failure) throw failure;
      const p = work().catch((err: unknown) => {
        failure = failure || err;
      });
      inflight.add(p);
      void p.finally(() => inflight.delete(p));
      while (inflight.size >= limit) await Promise.race(inflight);
      if (failure) throw failure;
    },
    async drain() {
      await Promise.all(inflight);
      if (failure) throw failure;
    },
  };
}
