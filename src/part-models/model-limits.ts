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
  /** levels of the node tree (model-precheck.ts's STRUCTURE_LIMITS.nodeDepth when absent: not a setting) */
  modelMaxDepth?: number;
  /** seconds one preparation may take (its child process is killed after); default DEFAULT_PREPARE_LIMITS */
  modelPrepareTimeoutSeconds?: number;
  /** memory one preparation may use, MB (its child process's heap limit and resident size); default DEFAULT_PREPARE_LIMITS */
  modelPrepareMemoryMb?: number;
}

/** The preparation bounds when a caller gives none (RENDER_FARM_MODEL_PREPARE_TIMEOUT / _MEMORY_MB's defaults). */
export const DEFAULT_PREPARE_LIMITS = { modelPrepareTimeoutSeconds: 120, modelPrepareMemoryMb: 2048 } as const;

/** A texture more than this many times the limit a side is refused rather than resized (memory). */
export const TEXTURE_REFUSE_FACTOR = 4;

/** The configured limits (only these keys are read). */
export function modelLimitsFrom(cfg: Pick<Config, Exclude<keyof ModelLimits, 'modelMaxDepth'>>): ModelLimits {
  return {
    modelMaxBytes: cfg.modelMaxBytes,
    modelMaxTriangles: cfg.modelMaxTriangles,
    modelMaxTextureSize: cfg.modelMaxTextureSize,
    modelMaxNodes: cfg.modelMaxNodes,
    modelPrepareTimeoutSeconds: cfg.modelPrepareTimeoutSeconds,
    modelPrepareMemoryMb: cfg.modelPrepareMemoryMb,
  };
}
