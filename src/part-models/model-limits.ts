/**
 * The limits a part model is held to (RENDER_FARM_MODEL_MAX_*). Named as the config keys, so a
 * Config is a ModelLimits and tests can pass small numbers without building a config.
 */
import type { Config } from '../config.js';

export interface ModelLimits {
  /** the model file (a .gltf with its files: all together), bytes */
  modelMaxBytes: number;
  /** triangles of the prepared model; more are simplified down to it */
  modelMaxTriangles: number;
  /** pixels a side of a prepared texture; larger ones are resized */
  modelMaxTextureSize: number;
  /** nodes in the model, anchors included */
  modelMaxNodes: number;
}

/** The configured limits (only these four keys are read). */
export function modelLimitsFrom(cfg: Pick<Config, keyof ModelLimits>): ModelLimits {
  return {
    modelMaxBytes: cfg.modelMaxBytes,
    modelMaxTriangles: cfg.modelMaxTriangles,
    modelMaxTextureSize: cfg.modelMaxTextureSize,
    modelMaxNodes: cfg.modelMaxNodes,
  };
}
