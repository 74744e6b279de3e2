/** A failure that retrying cannot fix (bad data): the render fails at once, no retry. */
export class PermanentRenderError extends Error {
  constructor(message: string) {
    super(message);
    this.name = 'PermanentRenderError';
  }
}
