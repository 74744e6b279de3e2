/**
 * A tower air cooler: a nickel base, U-shaped heat pipes rising through a fin stack as tall as
 * the data says (their capped ends show above it), a top cover with the brand and its fan(s)
 * on the intake (front) and exhaust faces, held by wire clips. Local frame: origin on the
 * CPU's top surface, the tower rises toward -x; airflow runs along z (front to rear).
 * Low-profile coolers (under 80 mm) lie flat with the fan on top.
 */
import * as THREE from 'three';
import type { CoolerSpecs } from '../../../src/model/part.js';
import { canvasTexture, fitText } from '../util/canvas-texture.js';
import { box, cylinder, paintRainbow, roundedBox, tube } from '../util/geometry.js';
import type { MaterialKit } from '../util/materials.js';
import { buildFan } from './fan.js';

const STACK_DEPTH = 50;

export function buildAirCooler(kit: MaterialKit, specs: CoolerSpecs, name = ''): THREE.Group {
  const g = new THREE.Group();
  const h = specs.heightMm;
  const fan = specs.fanSizeMm;
  const light = luminance(specs.color) > 0.5;
  const finMat = kit.metal(finColor(specs.color), 0.38);
  const brand = (name.trim().split(/\s+/)[0] ?? '').toUpperCase();
  const low = h < 80; // low-profile: fan on top blowing down, no tower
  roundedBox(g, kit.brushed('#c9ccd1', 0.3), [6, 40, 40], [-3, 0, 0], 1.5, 1);
  const pipe = kit.metal('#c8cdd2', 0.25);

  if (low) {
    const fins = Math.max(4, Math.floor((fan - 10) / 3.5));
    const span = fan - 4;
    for (let i = 0; i < fins; i++)
      box(g, finMat, [h - 30, span, 0.5], [-6 - (h - 30) / 2, 0, -span / 2 + (i * span) / (fins - 1)]);
    for (const y of [-18, -6, 6, 18]) cylinder(g, pipe, 3, span, [-8, y, 0], 'z', 8);
    if (specs.fanCount > 0) {
      const f = buildFan(kit, {
        sizeMm: Math.min(fan, 120),
        color: '#1b1c1f',
        rgb: specs.rgb,
        thickness: 15,
        label: brand,
      });
      f.rotation.y = -Math.PI / 2;
      f.position.x = -h + 8;
      g.add(f);
    }
    shadows(g);
    return g;
  }

  const stackBottom = 36;
  const stackH = Math.max(20, h - stackBottom - 6);
  const top = -h + 6;
  // U-shaped heat pipes: up one side of the stack, through the base, up the other; their
  // ends stop under the top cover
  for (let i = 0; i < 4; i++) {
    const y = -21 + i * 14;
    const legs = [-15 + (i % 2) * 4, 15 - (i % 2) * 4];
    const pts = [
      new THREE.Vector3(top + 3, y, legs[0]),
      new THREE.Vector3(-stackBottom, y, legs[0]),
      new THREE.Vector3(-10, y, legs[0] * 0.8),
      new THREE.Vector3(-4, y, 0),
      new THREE.Vector3(-10, y, legs[1] * 0.8),
      new THREE.Vector3(-stackBottom, y, legs[1]),
      new THREE.Vector3(top + 3, y, legs[1]),
    ];
    tube(g, pipe, pts, 3, { radial: 6, segments: 28, tension: 0.2 });
  }
  // the fin stack: thin plates stacked along the tower's height, every other one a little wider
  const fins = Math.min(52, Math.floor(stackH / 2.6));
  const finW = fan + 6;
  for (let i = 0; i < fins; i++) {
    const wide = i % 2 === 0 ? 1 : 0.97;
    box(g, finMat, [0.5, finW * wide, STACK_DEPTH], [-stackBottom - (i * stackH) / (fins - 1), 0, 0]);
  }
  // side rails make the stack read as a block from edge-on angles
  box(g, finMat, [stackH, 1.2, STACK_DEPTH], [-stackBottom - stackH / 2, finW / 2 - 0.6, 0]);
  box(g, finMat, [stackH, 1.2, STACK_DEPTH], [-stackBottom - stackH / 2, -finW / 2 + 0.6, 0]);
  // top cover in the cooler's colour, with the brand
  roundedBox(g, kit.paint(specs.color, 0.4), [5, finW + 2, STACK_DEPTH + 2], [top + 2, 0, 0], 2, 1);
  if (brand) {
    const logo = new THREE.Mesh(
      new THREE.PlaneGeometry(finW * 0.55, 12),
      kit.textured(
        `cooler-logo:${brand}:${light}`,
        () =>
          canvasTexture(512, 96, (ctx, w, hh) => {
            ctx.clearRect(0, 0, w, hh);
            ctx.fillStyle = light ? '#34373c' : '#e3e5e8';
            ctx.textAlign = 'center';
            ctx.textBaseline = 'middle';
            fitText(ctx, brand, w / 2, hh / 2, w * 0.9, 70);
          }),
        specs.color,
        { transparent: true },
      ),
    );
    // along the cover's long side, reading top to bottom
    logo.rotation.set(0, -Math.PI / 2, -Math.PI / 2);
    logo.position.set(top - 0.6, 0, 0);
    g.add(logo);
  }
  if (specs.rgb) {
    const strip = new THREE.Mesh(paintRainbow(new THREE.BoxGeometry(1.5, finW - 10, 4), 'y'), kit.rgb());
    strip.position.set(top - 0.5, 0, STACK_DEPTH / 2 - 4);
    strip.name = 'rgb-strip';
    g.add(strip);
  }
  const fanX = -stackBottom - stackH / 2;
  const clip = kit.metal('#9da2a8', 0.35);
  for (let i = 0; i < Math.min(2, specs.fanCount); i++) {
    const f = buildFan(kit, { sizeMm: fan, color: light ? '#e9eaec' : '#1b1c1f', rgb: specs.rgb, label: brand });
    const z = (i === 0 ? 1 : -1) * (STACK_DEPTH / 2 + 13);
    f.position.set(fanX, 0, z);
    g.add(f);
    // wire clips holding the fan to the stack
    for (const s of [-1, 1]) box(g, clip, [1, 1, 26], [fanX + s * (fan / 2 - 8), finW / 2 + 0.5, z * 0.75]);
  }
  shadows(g);
  return g;
}

function luminance(color: string): number {
  const c = new THREE.Color(color);
  return (c.r + c.g + c.b) / 3;
}

function finColor(color: string): string {
  return luminance(color) < 0.2 ? '#2b2d31' : '#c9ccd1';
}

function shadows(g: THREE.Object3D): void {
  g.traverse((o) => {
    const m = o as THREE.Mesh;
    if (m.isMesh && !(m.material as THREE.Material).transparent) o.castShadow = o.receiveShadow = true;
  });
}
