/**
 * Seasonal effects: winterMode (falling snow, snow on the ground) and springMode (falling
 * petals, petals on the ground). Particles are seeded (no Math.random) and every motion is
 * periodic over one turn: each particle falls a whole number of loops and sways a whole
 * number of periods per turn, computed from the integer frame index, so frame `frames`
 * equals frame 0 exactly and the video loops seamlessly.
 */
import * as THREE from 'three';
import { createRng, type Rng } from '../util/prng.js';
import { softDotTexture } from '../util/textures.js';

export interface Volume {
  /** horizontal radius and vertical range of the particle volume (metres) */
  radius: number;
  minY: number;
  maxY: number;
}

interface Particle {
  x: number;
  z: number;
  phase: number;
  /** whole loops fallen per turn */
  falls: number;
  sway: number;
  swayCycles: number;
  swayPhase: number;
  spinCycles: [number, number, number];
}

export interface SeasonalEffect {
  /** in world space: particles (fixed relative to the camera) */
  world: THREE.Object3D;
  /** in the turntable: ground cover that turns with the build */
  ground: THREE.Object3D;
  /** poses particles for frame `index` of `frames` */
  update(index: number, frames: number): void;
  /** particle positions at a frame (for tests) */
  positionsAt(index: number, frames: number): Float32Array;
  dispose(): void;
}

function makeParticles(rng: Rng, count: number, volume: Volume, maxFalls: number): Particle[] {
  const out: Particle[] = [];
  for (let i = 0; i < count; i++) {
    const r = volume.radius * Math.sqrt(rng());
    const a = rng() * Math.PI * 2;
    out.push({
      x: Math.cos(a) * r,
      z: Math.sin(a) * r,
      phase: rng(),
      falls: 1 + Math.floor(rng() * maxFalls),
      sway: 0.01 + rng() * 0.03,
      swayCycles: 1 + Math.floor(rng() * 3),
      swayPhase: rng() * Math.PI * 2,
      spinCycles: [1 + Math.floor(rng() * 3), 1 + Math.floor(rng() * 2), Math.floor(rng() * 3)],
    });
  }
  return out;
}

/** Fraction of the turn at frame `index`, times `cycles`, reduced with integers so it is exact. */
function turn(index: number, frames: number, cycles: number): number {
  const f = Math.max(1, Math.floor(frames));
  const i = ((Math.floor(index) % f) + f) % f;
  return ((i * cycles) % f) / f;
}

function fillPositions(out: Float32Array, particles: Particle[], volume: Volume, index: number, frames: number): void {
  const h = volume.maxY - volume.minY;
  particles.forEach((p, k) => {
    const fall = turn(index, frames, p.falls);
    let t = p.phase - fall;
    t -= Math.floor(t);
    const s = turn(index, frames, p.swayCycles) * Math.PI * 2 + p.swayPhase;
    out[k * 3] = p.x + Math.sin(s) * p.sway;
    out[k * 3 + 1] = volume.minY + t * h;
    out[k * 3 + 2] = p.z + Math.cos(s) * p.sway;
  });
}

/** SeasonalEffect.positionsAt over these particles: a fresh array each call. */
function positionsOf(particles: Particle[], volume: Volume): SeasonalEffect['positionsAt'] {
  return (index, frames) => {
    const out = new Float32Array(particles.length * 3);
    fillPositions(out, particles, volume, index, frames);
    return out;
  };
}

export function buildSnow(volume: Volume, floorY: number, seed = 0x5eed): SeasonalEffect {
  const rng = createRng(seed);
  const particles = makeParticles(rng, 700, volume, 2);
  const positions = new Float32Array(particles.length * 3);
  const geometry = new THREE.BufferGeometry();
  const attr = new THREE.BufferAttribute(positions, 3);
  geometry.setAttribute('position', attr);
  const material = new THREE.PointsMaterial({
    size: volume.radius * 0.035,
    map: softDotTexture(),
    transparent: true,
    depthWrite: false,
    // a touch of blue so flakes still read against the light winter backdrop
    color: '#eef4ff',
    sizeAttenuation: true,
  });
  const points = new THREE.Points(geometry, material);
  points.frustumCulled = false;
  points.name = 'snow';

  // snow cover: a soft white disc with drifts, under everything else on the floor
  const ground = new THREE.Group();
  const disc = new THREE.Mesh(
    new THREE.CircleGeometry(volume.radius * 1.1, 48),
    new THREE.MeshStandardMaterial({ color: '#f4f7fb', roughness: 0.95, transparent: true, opacity: 0.92 }),
  );
  disc.rotation.x = -Math.PI / 2;
  disc.position.y = floorY + 0.0002;
  disc.receiveShadow = true;
  disc.renderOrder = -3;
  ground.add(disc);
  const drift = new THREE.MeshStandardMaterial({ color: '#ffffff', roughness: 1 });
  const dr = createRng(seed + 1);
  for (let i = 0; i < 14; i++) {
    const a = dr() * Math.PI * 2;
    const r = volume.radius * (0.45 + dr() * 0.5);
    const m = new THREE.Mesh(
      new THREE.SphereGeometry(0.04 + dr() * 0.05, 10, 6, 0, Math.PI * 2, 0, Math.PI / 2),
      drift,
    );
    m.scale.y = 0.25;
    m.position.set(Math.cos(a) * r, floorY, Math.sin(a) * r);
    m.receiveShadow = true;
    ground.add(m);
  }

  return {
    world: points,
    ground,
    update(index, frames) {
      fillPositions(positions, particles, volume, index, frames);
      attr.needsUpdate = true;
    },
    positionsAt: positionsOf(particles, volume),
    dispose() {
      geometry.dispose();
      material.dispose();
      disposeTree(ground);
    },
  };
}

function petalGeometry(size: number): THREE.BufferGeometry {
  const s = new THREE.Shape();
  s.moveTo(0, -size);
  s.quadraticCurveTo(size * 0.9, -size * 0.3, size * 0.25, size * 0.9);
  s.lineTo(0, size * 0.65);
  s.lineTo(-size * 0.25, size * 0.9);
  s.quadraticCurveTo(-size * 0.9, -size * 0.3, 0, -size);
  return new THREE.ShapeGeometry(s, 3);
}

export function buildPetals(volume: Volume, floorY: number, seed = 0xb10550): SeasonalEffect {
  const rng = createRng(seed);
  const particles = makeParticles(rng, 220, volume, 1);
  const size = volume.radius * 0.018;
  const material = new THREE.MeshStandardMaterial({ color: '#ffffff', roughness: 0.6, side: THREE.DoubleSide });
  const mesh = new THREE.InstancedMesh(petalGeometry(size), material, particles.length);
  mesh.frustumCulled = false;
  mesh.name = 'petals';
  const palette = ['#ffc4d6', '#ffb0c8', '#ffd8e4', '#f7a1bd', '#fff0f4'].map((c) => new THREE.Color(c));
  particles.forEach((_, i) => mesh.setColorAt(i, palette[Math.floor(rng() * palette.length)]!));
  const positions = new Float32Array(particles.length * 3);
  const m4 = new THREE.Matrix4();
  const q = new THREE.Quaternion();
  const e = new THREE.Euler();
  const one = new THREE.Vector3(1, 1, 1);
  const v = new THREE.Vector3();

  const ground = new THREE.Group();
  const lying = new THREE.InstancedMesh(petalGeometry(size), material, 160);
  const gr = createRng(seed + 1);
  for (let i = 0; i < lying.count; i++) {
    const a = gr() * Math.PI * 2;
    const r = volume.radius * (0.35 + 0.75 * Math.sqrt(gr()));
    e.set(-Math.PI / 2, 0, gr() * Math.PI * 2);
    m4.compose(v.set(Math.cos(a) * r, floorY + 0.0015, Math.sin(a) * r), q.setFromEuler(e), one);
    lying.setMatrixAt(i, m4);
    lying.setColorAt(i, palette[Math.floor(gr() * palette.length)]!);
  }
  lying.receiveShadow = true;
  ground.add(lying);

  const update = (index: number, frames: number) => {
    fillPositions(positions, particles, volume, index, frames);
    particles.forEach((p, i) => {
      const [a, b, c] = p.spinCycles;
      e.set(
        turn(index, frames, a) * Math.PI * 2 + p.swayPhase,
        turn(index, frames, b) * Math.PI * 2,
        turn(index, frames, c) * Math.PI * 2,
      );
      m4.compose(v.set(positions[i * 3]!, positions[i * 3 + 1]!, positions[i * 3 + 2]!), q.setFromEuler(e), one);
      mesh.setMatrixAt(i, m4);
    });
    mesh.instanceMatrix.needsUpdate = true;
  };
  return {
    world: mesh,
    ground,
    update,
    positionsAt: positionsOf(particles, volume),
    dispose() {
      mesh.dispose();
      mesh.geometry.dispose();
      lying.geometry.dispose();
      lying.dispose();
      material.dispose();
    },
  };
}

function disposeTree(root: THREE.Object3D): void {
  root.traverse((o) => {
    const m = o as THREE.Mesh;
    if (m.isMesh) {
      m.geometry.dispose();
      (m.material as THREE.Material).dispose();
    }
  });
}
