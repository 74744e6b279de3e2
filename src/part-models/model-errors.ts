/**
 * Why a part model is refused. One error for every problem an artist or operator can fix in the
 * file (invalid glTF, external URIs, wrong size, too many triangles, a category that takes no
 * model), one for the byte limit, so the API and the CLI map them without knowing which check
 * failed. Nothing is stored when either is thrown.
 */
import { UserError, type ErrorDetail } from '../errors.js';

/** Problems listed in `details` at most (the validator may report thousands). */
export const MAX_MODEL_PROBLEMS = 5;

/**
 * A model that cannot be used as given: 422 `invalid_model`, exit 2. The message says what is
 * wrong and what to do; `problems` (and `details`, with the glTF JSON pointer where there is one)
 * list the first few problems, e.g. the validator's first errors.
 */
export class ModelRejectedError extends UserError {
  readonly problems: string[];

  constructor(message: string, problems: Array<string | ErrorDetail> = []) {
    const details = problems.slice(0, MAX_MODEL_PROBLEMS).map((p) => (typeof p === 'string' ? { message: p } : p));
    super('invalid_model', message, { status: 422, details });
    this.name = 'ModelRejectedError';
    this.problems = details.map((d) => (typeof d.pointer === 'string' ? `${d.message} (${d.pointer})` : d.message));
  }
}

/** A model file (or a .gltf and its files together) over RENDER_FARM_MODEL_MAX_BYTES: 413 `model_too_large`, exit 2. */
export class ModelTooLargeError extends UserError {
  constructor(
    message: string,
    readonly bytes: number,
    readonly maxBytes: number,
  ) {
    super('model_too_large', message, { status: 413, details: [{ message, bytes, maxBytes }] });
    this.name = 'ModelTooLargeError';
  }
}

/**
 * Preparing the model ran past its time or memory bound (RENDER_FARM_MODEL_PREPARE_TIMEOUT /
 * _MEMORY_MB): 422 `model_too_complex`, exit 2. Its child process was killed; nothing is stored.
 */
export class ModelTooComplexError extends UserError {
  constructor(message: string) {
    super('model_too_complex', message, { status: 422 });
    this.name = 'ModelTooComplexError';
  }
}
