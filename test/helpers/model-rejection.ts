/** The ModelRejectedError a preparation or validation promise rejects with (fails the test if it resolves or throws another error). */
import { expect } from 'vitest';
import { ModelRejectedError } from '../../src/part-models/model-errors.js';

export async function rejection(p: Promise<unknown>): Promise<ModelRejectedError> {
  const err = await p.then(
    () => null,
    (e: unknown) => e,
  );
  expect(err).toBeInstanceOf(ModelRejectedError);
  return err as ModelRejectedError;
}
