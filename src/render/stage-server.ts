/**
 * A loopback HTTP server for the stage page. The page must be served over http (not
 * file:// or about:blank) for WebCodecs and fetch to work, and the page posts captured frames
 * back here as raw bytes: a binary POST measured cheaper than base64 through the DevTools
 * protocol. A large frame (a sprite-sheet row of 1365 px frames is 89 MB) comes in pieces, each
 * with `?offset=&total=`, and is handed on once whole. Only 127.0.0.1 listens; nothing else is served. Part models (`GET /models/<sha256>.glb`)
 * come from a ModelSource (model-source.ts): the page fetches them from its own origin, so the
 * stage still reaches nothing outside the machine.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import type { ModelSource } from './model-source.js';

/** The stage page: an html document and its one script (served at any `*.js` path). */
export interface StageBundle {
  html: string;
  js: string;
}

/** Receives one posted frame; resolving the promise acknowledges it (backpressure for the page). */
export type FrameReceiver = (index: number, bytes: Buffer) => Promise<void>;

/** A running stage server. */
export interface StageServer {
  /** base URL, e.g. http://127.0.0.1:41234 */
  url: string;
  /** The receiver for frames posted under `token`; returns an unregister function. */
  onFrames(token: string, receiver: FrameReceiver): () => void;
  /** Serves `/models/*` from `source` (null: every model is 404); returns the source it replaces. */
  setModelSource(source: ModelSource | null): ModelSource | null;
  close(): Promise<void>;
}

const MODEL_PATH = /^\/models\/([0-9a-f]{64})\.glb$/;

const MAX_FRAME_BYTES = 256 * 1024 * 1024;

/** A frame sent in pieces (`?offset=&total=`, see farm/src/capture/upload.ts): filled until every byte is in. */
interface PartialFrame {
  bytes: Buffer;
  received: number;
}

/** Starts the server on an ephemeral loopback port. */
export async function startStageServer(bundle: StageBundle, models: ModelSource | null = null): Promise<StageServer> {
  const receivers = new Map<string, FrameReceiver>();
  const partial = new Map<string, PartialFrame>();
  let source = models;
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    const model = MODEL_PATH.exec(url.pathname);
    if (req.method === 'GET' && model) {
      const from = source;
      if (!from) {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('no model source');
        return;
      }
      from(model[1]!).then(
        (bytes) => {
          if (!bytes) res.writeHead(404, { 'content-type': 'text/plain' }).end(`no model ${model[1]}`);
          // no-store: the page keeps parsed models itself (farm/src/models/glb-library.ts)
          else
            res
              .writeHead(200, {
                'content-type': 'model/gltf-binary',
                'content-length': bytes.byteLength,
                'cache-control': 'no-store',
              })
              .end(bytes);
        },
        (err: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(err.message),
      );
      return;
    }
    const frame = /^\/frames\/([A-Za-z0-9_-]+)\/(\d+)$/.exec(url.pathname);
    if (req.method === 'POST' && frame) {
      const receiver = receivers.get(frame[1]!);
      const chunks: Buffer[] = [];
      let size = 0;
      req.on('data', (c: Buffer) => {
        size += c.length;
        if (size > MAX_FRAME_BYTES) req.destroy();
        else chunks.push(c);
      });
      req.on('end', () => {
        if (!receiver) {
          res.writeHead(410).end();
          return;
        }
        let body: Buffer = Buffer.concat(chunks);
        const total = Number(url.searchParams.get('total') ?? NaN);
        if (Number.isInteger(total)) {
          // one piece of a large frame: acknowledged on arrival, delivered once whole
          const offset = Number(url.searchParams.get('offset'));
          const key = `${frame[1]}/${frame[2]}`;
          const p = partial.get(key) ?? { bytes: Buffer.alloc(total), received: 0 };
          if (
            total > MAX_FRAME_BYTES ||
            !Number.isInteger(offset) ||
            offset < 0 ||
            offset + body.length > total ||
            p.bytes.length !== total
          ) {
            partial.delete(key);
            res
              .writeHead(400, { 'content-type': 'text/plain' })
              .end(`piece ${offset}+${body.length} of ${total} does not fit the frame`);
            return;
          }
          body.copy(p.bytes, offset);
          p.received += body.length;
          if (p.received < total) {
            partial.set(key, p);
            res.writeHead(204).end();
            return;
          }
          partial.delete(key);
          body = p.bytes;
        }
        receiver(Number(frame[2]), body).then(
          () => res.writeHead(204).end(),
          (err: Error) => res.writeHead(500, { 'content-type': 'text/plain' }).end(err.message),
        );
      });
      return;
    }
    if (req.method === 'GET' && (url.pathname === '/' || url.pathname === '/index.html')) {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8', 'cache-control': 'no-store' }).end(bundle.html);
      return;
    }
    if (req.method === 'GET' && url.pathname.endsWith('.js')) {
      res
        .writeHead(200, { 'content-type': 'text/javascript; charset=utf-8', 'cache-control': 'no-store' })
        .end(bundle.js);
      return;
    }
    res.writeHead(404).end();
  });
  // the page and Node talk over keep-alive sockets; no request should hang forever
  server.keepAliveTimeout = 60_000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    onFrames(token, receiver) {
      receivers.set(token, receiver);
      return () => {
        if (receivers.get(token) === receiver) receivers.delete(token);
        for (const key of partial.keys()) if (key.startsWith(`${token}/`)) partial.delete(key);
      };
    },
    setModelSource(next) {
      const previous = source;
      source = next;
      return previous;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
