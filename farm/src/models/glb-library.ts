/**
 * The page's part models (src/model/part-models.ts): prepared GLBs fetched from the stage
 * server (`/models/<sha256>.glb`, its own loopback origin), parsed with three's GLTFLoader and
 * the meshopt decoder once per sha256, and kept across loads, chunks and renders in a bounded
 * LRU. A load gets the cached templates; placement (layout/model-placement.ts) clones them, so
 * clones share geometry and materials: a session's disposal leaves them alone and only the LRU's
 * eviction frees them. A model that cannot be fetched or parsed fails the load, naming the part
 * and the sha256: a render must never silently draw the wrong thing.
 */
import * as THREE from 'three';
import { GLTFLoader } from 'three/examples/jsm/loaders/GLTFLoader.js';
import { MeshoptDecoder } from 'three/examples/jsm/libs/meshopt_decoder.module.js';
import { disposeLods } from './model-lod.js';
import { MODEL_SHA256 } from '../../../src/model/part-models.js';

/** Parses GLB bytes (meshopt-compressed or not) into a scene in the authoring frame (metres). */
export async function parseGlb(bytes: ArrayBuffer): Promise<THREE.Group> {
  await MeshoptDecoder.ready;
  const loader = new GLTFLoader().setMeshoptDecoder(MeshoptDecoder);
  const gltf = await loader.parseAsync(bytes, '');
  gltf.scene.updateMatrixWorld(true);
  return gltf.scene;
}

/** Frees what a parsed model holds on the GPU: geometries, materials and their textures. */
export function disposeModel(root: THREE.Object3D): void {
  const textures = new Set<THREE.Texture>();
  root.traverse((o) => {
    const mesh = o as THREE.Mesh;
    if (!mesh.isMesh) return;
    disposeLods(mesh.geometry);
    mesh.geometry.dispose();
    for (const m of Array.isArray(mesh.material) ? mesh.material : [mesh.material]) {
      for (const v of Object.values(m)) if (v instanceof THREE.Texture) textures.add(v);
      m.dispose();
    }
  });
  for (const t of textures) t.dispose();
}

/** Fetches a model's bytes; throws an Error saying why there are none. */
export type GlbFetcher = (sha256: string) => Promise<ArrayBuffer>;

/** The stage server's `/models/<sha256>.glb`. */
export const fetchFromStageServer: GlbFetcher = async (sha256) => {
  const res = await fetch(`/models/${sha256}.glb`);
  if (!res.ok)
    throw new Error(
      `the stage server answered ${res.status}${res.status === 404 ? ' (no such model in the model store)' : ''}`,
    );
  return res.arrayBuffer();
};

/** Models kept parsed (a build uses at most ~7; chunks and renders of other builds reuse them). */
export const LIBRARY_MODELS = 16;

export class GlbLibrary {
  /** GLB parses so far: LRU misses (tests check a sha256 is parsed once across loads). */
  parses = 0;
  /** sha256 -> parsed template, least recently used first */
  private readonly entries = new Map<string, Promise<THREE.Group>>();

  constructor(
    private readonly fetchGlb: GlbFetcher = fetchFromStageServer,
    private readonly max = LIBRARY_MODELS,
  ) {}

  /** How many models are parsed and kept. */
  get size(): number {
    return this.entries.size;
  }

  /**
   * The parsed templates of the models of the parts in `partIds` (`models`: part ID -> sha256),
   * by part ID. Models of parts not in the build are not fetched. Evicts the least recently used
   * models beyond the bound, never one this call returns.
   */
  async templates(
    models: Record<string, string> | undefined,
    partIds: ReadonlySet<string>,
  ): Promise<Map<string, THREE.Object3D>> {
    const wanted = Object.entries(models ?? {})
      .filter(([id]) => partIds.has(id))
      .sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
    for (const [id, sha] of wanted) {
      if (typeof sha !== 'string' || !MODEL_SHA256.test(sha))
        throw new Error(`part model of ${id}: ${JSON.stringify(sha)} is not a sha256 (64 lower-case hex digits)`);
    }
    const out = new Map<string, THREE.Object3D>();
    const results = await Promise.allSettled(wanted.map(([, sha]) => this.get(sha)));
    results.forEach((r, i) => {
      const [id, sha] = wanted[i]!;
      if (r.status === 'rejected') {
        const why = r.reason instanceof Error ? r.reason.message : String(r.reason);
        throw new Error(`part model of ${id} (sha256 ${sha}) could not be loaded: ${why}`);
      }
      out.set(id, r.value);
    });
    this.trim(new Set(wanted.map(([, sha]) => sha)));
    return out;
  }

  private get(sha: string): Promise<THREE.Group> {
    let entry = this.entries.get(sha);
    if (entry) {
      // most recently used last
      this.entries.delete(sha);
      this.entries.set(sha, entry);
      return entry;
    }
    this.parses++;
    entry = this.fetchGlb(sha).then((bytes) => parseGlb(bytes));
    this.entries.set(sha, entry);
    // a failure is not kept: the next load asks again
    entry.catch(() => {
      if (this.entries.get(sha) === entry) this.entries.delete(sha);
    });
    return entry;
  }

  private trim(pinned: ReadonlySet<string>): void {
    for (const [sha, entry] of this.entries) {
      if (this.entries.size <= this.max) break;
      if (pinned.has(sha)) continue;
      this.entries.delete(sha);
      void entry.then(disposeModel, () => {});
    }
  }

  /** Frees every kept model. */
  clear(): void {
    for (const entry of this.entries.values()) void entry.then(disposeModel, () => {});
    this.entries.clear();
  }
}
