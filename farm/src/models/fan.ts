/**
 * A fan: rounded square frame with a round throat, corner pads, four struts
 * to the motor hub, a hub sticker, swept and pitched blades (7-11), and on RGB fans a glowing
 * ring on both faces and a glowing hub. Local frame: axis along +z (the airflow), centred at
 * the origin, 25 mm thick (case fans, cooler fans; GPU fans use `frameless`).
 *
 * Geometry is made once per size and shared (cached): a build holds up to ~20 fans, and the
 * blade set of each is one mesh.
 */
import * as THREE from 'three';
import { canvasTexture, fitText } from '../util/canvas-texture.js';
import type { MaterialKit } from '../util/materials.js';
import { box, cylinder, paintRainbow, planarUv } from '../util/geometry.js';

export interface FanOptions {
  sizeMm: number;
  color: string;
  rgb: boolean;
  thickness?: number;
  blades?: number;
  /** GPU fans: no square frame, just a thin ring */
  frameless?: boolean;
  /** brand for the hub sticker (first word of the catalog name); none = a plain sticker */
  label?: string;
}

const cache = new Map<string, THREE.BufferGeometry>();

function cached(key: string, make: () => THREE.BufferGeometry): THREE.BufferGeometry {
  let g = cache.get(key);
  if (!g) {
    g = make();
    if (cache.size > 256) cache.clear();
    cache.set(key, g);
  }
  return g;
}

function roundedSquare(h: number, r: number): THREE.Shape {
  const shape = new THREE.Shape();
  shape.moveTo(-h + r, -h);
  shape.lineTo(h - r, -h);
  shape.quadraticCurveTo(h, -h, h, -h + r);
  shape.lineTo(h, h - r);
  shape.quadraticCurveTo(h, h, h - r, h);
  shape.lineTo(-h + r, h);
  shape.quadraticCurveTo(-h, h, -h, h - r);
  shape.lineTo(-h, -h + r);
  shape.quadraticCurveTo(-h, -h, -h + r, -h);
  return shape;
}

/** The frame: a rounded square with a round throat, lightly bevelled so edges catch light. */
function frameGeometry(size: number, thickness: number): THREE.BufferGeometry {
  return cached(`frame:${size}:${thickness}`, () => {
    const h = size / 2;
    const shape = roundedSquare(h - 1, 3 + size * 0.05);
    const hole = new THREE.Path();
    hole.absarc(0, 0, h * 0.93, 0, Math.PI * 2, true);
    shape.holes.push(hole);
    const g = new THREE.ExtrudeGeometry(shape, {
      depth: thickness - 2,
      bevelEnabled: true,
      bevelThickness: 1,
      bevelSize: 1,
      bevelSegments: 1,
      curveSegments: 8,
    });
    g.translate(0, 0, -(thickness - 2) / 2);
    return planarUv(g);
  });
}

/**
 * Every blade of a rotor as one surface. Each blade is a small grid over (radius, chord):
 * the chord line sweeps back with radius (a swept blade), is pitched against the rotation
 * plane (the airflow), and bulges a little (camber), so light slides across it.
 */
function bladesGeometry(
  inner: number,
  outer: number,
  count: number,
  depth: number,
  sweep: number,
): THREE.BufferGeometry {
  return cached(`blades:${inner.toFixed(1)}:${outer.toFixed(1)}:${count}:${depth}:${sweep}`, () => {
    const radial = 5;
    const chord = 3;
    const positions: number[] = [];
    const indices: number[] = [];
    const pitch = (2 * Math.PI) / count;
    for (let b = 0; b < count; b++) {
      const base = positions.length / 3;
      for (let i = 0; i <= radial; i++) {
        const s = i / radial;
        const r = inner + (outer - inner) * s;
        // wider toward the tip, covering ~80% of the circle at the rim
        const half = pitch * (0.3 + 0.12 * s);
        const centre = b * pitch + sweep * s * s;
        for (let j = 0; j <= chord; j++) {
          const t = (j / chord) * 2 - 1;
          const a = centre + t * half;
          const z = -t * depth * (0.55 + 0.45 * (1 - s)) + (1 - t * t) * depth * 0.18;
          positions.push(Math.cos(a) * r, Math.sin(a) * r, z);
        }
      }
      for (let i = 0; i < radial; i++) {
        for (let j = 0; j < chord; j++) {
          const a = base + i * (chord + 1) + j;
          const c = a + chord + 1;
          indices.push(a, c, a + 1, a + 1, c, c + 1);
        }
      }
    }
    const g = new THREE.BufferGeometry();
    g.setAttribute('position', new THREE.Float32BufferAttribute(positions, 3));
    g.setIndex(indices);
    g.computeVertexNormals();
    g.setAttribute('uv', new THREE.Float32BufferAttribute(new Float32Array((positions.length / 3) * 2), 2));
    return g;
  });
}

/** The hub sticker: a dark disc with the brand and a thin ring (a canvas texture). */
function stickerMaterial(kit: MaterialKit, label: string, light: boolean): THREE.Material {
  const text = label.slice(0, 14).toUpperCase();
  const ink = light ? '#2b2d31' : '#e8e9eb';
  const ground = light ? '#e9eaec' : '#1d1e21';
  return kit.textured(
    `fan-sticker:${text}:${light}`,
    () =>
      canvasTexture(128, 128, (ctx, w, h) => {
        ctx.fillStyle = ground;
        ctx.fillRect(0, 0, w, h);
        ctx.strokeStyle = ink;
        ctx.globalAlpha = 0.5;
        ctx.lineWidth = 3;
        ctx.beginPath();
        ctx.arc(w / 2, h / 2, w * 0.42, 0, Math.PI * 2);
        ctx.stroke();
        ctx.globalAlpha = 1;
        ctx.fillStyle = ink;
        ctx.textAlign = 'center';
        ctx.textBaseline = 'middle';
        if (text) fitText(ctx, text, w / 2, h / 2, w * 0.7, 30);
      }),
    ground,
    { roughness: 0.45 },
  );
}

export function buildFan(kit: MaterialKit, o: FanOptions): THREE.Group {
  const size = o.sizeMm;
  const t = o.thickness ?? 25;
  const group = new THREE.Group();
  group.name = 'fan';
  const light = luminance(o.color) > 0.5;
  const frameMat = kit.plastic(o.color, 0.55);
  const r = size / 2;
  const hubR = r * (o.frameless ? 0.36 : 0.3);
  if (!o.frameless) {
    group.add(new THREE.Mesh(frameGeometry(size, t), frameMat));
    // corner pads on both faces
    const pad = kit.plastic(light ? '#d3d5d9' : '#2a2b2f', 0.7);
    const c = r - 2 - size * 0.06;
    for (const sx of [-1, 1]) {
      for (const sy of [-1, 1]) {
        for (const sz of [-1, 1]) {
          const p = cylinder(group, pad, size * 0.06, 1.2, [sx * c, sy * c, sz * (t / 2 + 0.4)], 'z', 8);
          p.name = 'pad';
        }
      }
    }
    // four struts behind the rotor, from the frame corners to the motor
    const strut = kit.plastic(o.color, 0.6);
    for (let i = 0; i < 4; i++) {
      const a = Math.PI / 4 + (i * Math.PI) / 2;
      const len = r * 0.95 - hubR;
      const m = box(
        group,
        strut,
        [len, 3, 3],
        [Math.cos(a) * (hubR + len / 2), Math.sin(a) * (hubR + len / 2), -t / 2 + 2],
      );
      m.rotation.z = a;
    }
  } else {
    const ring = new THREE.Mesh(new THREE.TorusGeometry(r * 0.97, 1.4, 3, 24), frameMat);
    group.add(ring);
  }
  const hub = cylinder(group, kit.plastic(light ? '#d9dbde' : '#202124', 0.5), hubR, t * 0.7, [0, 0, 0], 'z', 24);
  hub.name = 'hub';
  const sticker = new THREE.Mesh(new THREE.CircleGeometry(hubR * 0.78, 24), stickerMaterial(kit, o.label ?? '', light));
  sticker.position.z = t * 0.35 + 0.15;
  group.add(sticker);

  const blades = Math.max(7, Math.min(11, o.blades ?? (size >= 120 ? 9 : 7)));
  const bladeMat = kit.sheet(o.frameless ? '#1b1c1f' : bladeColor(o.color), 0.45, 0.05);
  const depth = t * (o.frameless ? 0.3 : 0.26);
  group.add(
    new THREE.Mesh(
      bladesGeometry(hubR - 0.5, r * (o.frameless ? 0.95 : 0.91), blades, depth, o.frameless ? 0.55 : 0.4),
      bladeMat,
    ),
  );

  if (o.rgb) {
    // the glowing ring sits in the throat's lip on both faces: fans are seen from both sides
    for (const z of [t / 2 + 0.4, -t / 2 - 0.4]) {
      const ring = new THREE.Mesh(paintRainbow(new THREE.RingGeometry(r * 0.9, r * 0.99, 40, 1), 'angle'), kit.rgb());
      ring.position.z = z;
      if (z < 0) ring.rotation.y = Math.PI;
      ring.name = 'rgb-ring';
      group.add(ring);
    }
    const glow = new THREE.Mesh(
      paintRainbow(new THREE.RingGeometry(hubR * 0.8, hubR * 1.0, 24, 1), 'angle'),
      kit.rgb(),
    );
    glow.position.z = t * 0.35 + 0.2;
    group.add(glow);
  }
  return group;
}

function luminance(color: string): number {
  const c = new THREE.Color(color);
  return (c.r + c.g + c.b) / 3;
}

/** Blades a little lighter than a black frame, or the frame colour for coloured fans. */
function bladeColor(color: string): string {
  const c = new THREE.Color(color);
  const hsl = { h: 0, s: 0, l: 0 };
  c.getHSL(hsl);
  if (hsl.l < 0.15) c.setHSL(hsl.h, hsl.s, 0.14);
  return `#${c.getHexString()}`;
}
