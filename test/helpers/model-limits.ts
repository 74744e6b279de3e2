/** The model limits the preparation tests run under: generous, so only what a test sets out to exceed is refused. */
import type { ModelLimits } from '../../src/part-models/model-limits.js';

export const TEST_MODEL_LIMITS: Readonly<ModelLimits> = {
  modelMaxBytes: 64 * 1024 * 1024,
  modelMaxTriangles: 150_000,
  modelMaxTextureSize: 2048,
  modelMaxNodes: 1000,
};
