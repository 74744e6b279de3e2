/**
 * The child process one model preparation runs in (prepare-isolated.ts forks it): it takes one
 * request over IPC, runs prepareModel (the validator, glTF-Transform, meshoptimizer, sharp on an
 * untrusted file) and sends back the prepared model or the error, then disconnects. A throw that
 * escapes (the validator's compiled Dart throws from its own async zone) is sent back too; a
 * crash, an overrun or a kill is the parent's to report. Nothing here stores anything.
 */
import { UserError } from '../errors.js';
import { ModelRejectedError, ModelTooLargeError } from './model-errors.js';
import { prepareModel } from './prepare-model.js';
import type { ChildFailure, ChildReply, ChildRequest } from './prepare-isolated.js';

function failure(err: unknown): ChildFailure {
  if (err instanceof ModelTooLargeError)
    return { kind: 'too_large', message: err.message, bytes: err.bytes, maxBytes: err.maxBytes };
  if (err instanceof ModelRejectedError) return { kind: 'rejected', message: err.message, details: err.details ?? [] };
  if (err instanceof UserError) return { kind: 'rejected', message: err.message, details: err.details ?? [] };
  return { kind: 'failed', message: err instanceof Error ? `${err.name}: ${err.message}` : String(err) };
}

let answered = false;
function reply(r: ChildReply): void {
  if (answered || !process.send) return;
  answered = true;
  // the parent kills this process once the reply is in: nothing else is waited for
  process.send(r, () => process.disconnect());
}

process.on('uncaughtException', (err) => reply({ ok: false, error: failure(err) }));
process.on('unhandledRejection', (err) => reply({ ok: false, error: failure(err) }));

/**
 * IPC's advanced serialization hands typed arrays over as views into one message buffer; the
 * validator reads a .gltf's external buffers from offset 0 of their ArrayBuffer, so each file
 * gets its own copy here (a .gltf with a .bin otherwise fails validation with garbage accessors).
 */
function ownCopies(input: ChildRequest['input']): ChildRequest['input'] {
  const resources = Object.fromEntries(Object.entries(input.resources).map(([uri, b]) => [uri, new Uint8Array(b)]));
  return { ...input, bytes: new Uint8Array(input.bytes), resources };
}

process.once('message', (msg: ChildRequest) => {
  prepareModel(ownCopies(msg.input), msg.part, msg.options).then(
    (prepared) => reply({ ok: true, prepared }),
    (err: unknown) => reply({ ok: false, error: failure(err) }),
  );
});
