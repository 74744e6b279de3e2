/**
 * A graphics card. Local frame: origin where the card's PCB meets the first x16 slot at the
 * bracket end; the card stands out of the board toward -x (its "top edge", the side seen
 * through the window, is at x = -CARD_HEIGHT), its cooler hangs below (-y) and it runs
 * `lengthMm` toward +z (the case front). Fans face down, as in a real build.
 *
 * The window-facing edge carries what a product shot shows: the heatsink's fin edges and
 * heat pipes behind a cut-out, the model name (canvas text from the catalog name: "GEFORCE
 * RTX 4070 Ti" for NVIDIA cards, "RADEON RX 7900 XTX" for AMD, "ARC" for Intel), and a light
 * bar on RGB cards (a brushed accent line otherwise). On top: a vented backplate and the
 * power connector (its cable is in cables.ts).
 */
import * as THREE from 'three';
import { GPU_CARD_HEIGHT_MM, SLOT_PITCH_MM, type GpuSpecs } from '../../../src/model/part.js';
import { canvasTexture, fitText, SANS } from '../util/canvas-texture.js';
import { box, cylinder, paintRainbow, planarUv, roundedBox } from '../util/geometry.js';
import type { MaterialKit } from '../util/materials.js';
import { buildFan } from './fan.js';

export const CARD_HEIGHT = GPU_CARD_HEIGHT_MM;
const SLOT = SLOT_PITCH_MM;

export function gpuThickness(specs: GpuSpecs): number {
  return specs.slotWidth * SLOT - 3;
}

/** Where the power connector sits (card-local): on the top edge near the window side. */
export function powerConnector(specs: GpuSpecs): THREE.Vector3 {
  return new THREE.Vector3(-CARD_HEIGHT + 18, 6, specs.lengthMm * 0.62);
}

/** The two lines printed on the card's edge, from the brand and the catalog name. */
export function gpuNameText(specs: GpuSpecs, name: string): { brand: string; model: string } {
  const n = name.replace(/\s+/g, ' ');
  if (specs.brand === 'NVIDIA') {
    const m = /\b(RTX|GTX)\s*(\d{4}|\d{3})\s*(Ti)?\s*(SUPER)?/i.exec(n);
    const series = m ? m[1]!.toUpperCase() : 'RTX';
    const model = m ? [m[2], m[3] ? 'Ti' : '', m[4] ? 'SUPER' : ''].filter(Boolean).join(' ') : '';
    return { brand: `GEFORCE ${series}`, model };
  }
  if (specs.brand === 'AMD') {
    const m = /\bRX\s*(\d{3,4})\s*(XTX|XT|GRE)?/i.exec(n);
    return { brand: 'RADEON', model: m ? ['RX', m[1], m[2]?.toUpperCase()].filter(Boolean).join(' ') : '' };
  }
  if (specs.brand === 'Intel') {
    const m = /\b([AB]\d{3})\b/i.exec(n);
    return { brand: 'INTEL ARC', model: m ? m[1]!.toUpperCase() : '' };
  }
  return { brand: (n.split(' ')[0] ?? '').toUpperCase().slice(0, 14), model: '' };
}

function nameTexture(brand: string, model: string, light: boolean, accent: string): THREE.Texture | null {
  return canvasTexture(1024, 160, (ctx, w, h) => {
    ctx.clearRect(0, 0, w, h);
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'left';
    ctx.fillStyle = light ? '#26282c' : '#f1f2f4';
    ctx.font = `italic bold 120px ${SANS}`;
    fitText(ctx, brand, 16, h * 0.52, w * 0.62, 120, 'bold', 'italic');
    const used = ctx.measureText(brand).width;
    if (model) {
      ctx.fillStyle = accent;
      fitText(ctx, model, 16 + used + 24, h * 0.52, w - used - 56, 96, 'bold', 'italic');
    }
  });
}

export function buildGpu(kit: MaterialKit, specs: GpuSpecs, name = ''): THREE.Group {
  const g = new THREE.Group();
  const L = specs.lengthMm;
  const T = gpuThickness(specs);
  const h = CARD_HEIGHT;
  const light = luminance(specs.color) > 0.5;
  const shroud = kit.paint(specs.color, light ? 0.45 : 0.38);
  const finMat = kit.metal(light ? '#b9bdc3' : '#2c2e33', 0.45);
  const dark = kit.plastic('#0d0e10', 0.7);
  const accent = brandAccent(specs.brand);
  const body = T - 4;

  // PCB and the backplate above it (brushed, with vent slots)
  box(g, kit.solid('#13301f', 0.6, 0.1), [h - 6, 1.6, L - 8], [-(h - 6) / 2 - 6, 0, L / 2]);
  roundedBox(g, kit.brushed(light ? '#d5d8dc' : '#2a2c31', 0.4), [h, 2.6, L], [-h / 2, 2.2, L / 2], 1.2, 1);
  for (let i = 0; i < 5; i++) box(g, dark, [h * 0.5, 0.4, 3], [-h * 0.45, 3.6, L * 0.55 + i * 8]);

  // the cooler: fin block inside, the shroud around it (rounded end cap toward the front)
  box(g, kit.solid('#101113', 0.8, 0.2), [h - 10, body - 6, L - 14], [-h / 2, -body / 2, L / 2]);
  roundedBox(g, shroud, [h + 2, body * 0.48, L], [-h / 2, -body + (body * 0.48) / 2, L / 2], 3, 2);
  roundedBox(g, shroud, [h + 2, body, 10], [-h / 2, -body / 2, L - 5], 3, 2);
  roundedBox(g, shroud, [h + 2, body, 6], [-h / 2, -body / 2, 3], 2, 1);

  // the window-facing edge: fins and heat pipes behind a cut-out in the upper half...
  const edge = -h - 1;
  const finTop = -1;
  const finBottom = -body * 0.5;
  const finH = finTop - finBottom;
  const fins = Math.max(8, Math.floor((L - 24) / 2.6));
  for (let i = 0; i < fins; i++)
    box(g, finMat, [12, finH, 0.45], [edge + 6, (finTop + finBottom) / 2, 10 + (i + 0.5) * ((L - 24) / fins)]);
  const pipe = kit.metal(light ? '#d8dbdf' : '#b9a07a', 0.28);
  for (let i = 0; i < 3; i++)
    cylinder(g, pipe, 3, L - 30, [edge + 9, finBottom + finH * (0.25 + i * 0.25), L / 2], 'z', 10);
  // ...and the shroud's lower half with the name and the light bar
  const lowerY = -body + (body * 0.48) / 2;
  const plateH = body * 0.36;
  const text = gpuNameText(specs, name);
  const nameMat = kit.textured(
    `gpu-name:${text.brand}:${text.model}:${light}:${accent}`,
    () => nameTexture(text.brand, text.model, light, accent),
    specs.color,
    { transparent: true, roughness: 0.35, metalness: 0.2, glow: light ? 0 : 0.45 },
  );
  const nameLen = Math.min(L * 0.5, 170);
  const label = new THREE.Mesh(new THREE.PlaneGeometry(nameLen, Math.min(plateH * 1.1, nameLen / 6.4)), nameMat);
  label.rotation.y = -Math.PI / 2;
  label.position.set(edge - 1.1, lowerY + 1, 14 + nameLen / 2);
  label.name = 'gpu-name';
  g.add(label);
  const barZ0 = 22 + nameLen;
  const barLen = L - barZ0 - 16;
  if (barLen > 20) {
    if (specs.rgb) {
      const bar = new THREE.Mesh(paintRainbow(new THREE.BoxGeometry(1.2, 3.2, barLen), 'z'), kit.rgb());
      bar.position.set(edge - 1.2, lowerY + 1, barZ0 + barLen / 2);
      bar.name = 'gpu-light-bar';
      g.add(bar);
    } else {
      box(
        g,
        kit.brushed(light ? '#a7acb3' : '#5d6168', 0.3),
        [1, 2, barLen],
        [edge - 1.1, lowerY + 1, barZ0 + barLen / 2],
      );
    }
  }

  // fans on the underside, in round openings of the shroud's bottom plate
  const n = specs.fanCount;
  const fanSize = Math.min(h - 18, (L - 24) / n - 4);
  const bottom = new THREE.Shape();
  bottom.moveTo(-h - 1, 2);
  bottom.lineTo(1, 2);
  bottom.lineTo(1, L - 2);
  bottom.lineTo(-h - 1, L - 2);
  bottom.lineTo(-h - 1, 2);
  const centres: number[] = [];
  for (let i = 0; i < n; i++) {
    const z = 12 + (L - 24) * ((i + 0.5) / n);
    centres.push(z);
    const hole = new THREE.Path();
    hole.absarc(-h / 2, z, fanSize / 2 + 1, 0, Math.PI * 2, true);
    bottom.holes.push(hole);
  }
  const plate = planarUv(new THREE.ExtrudeGeometry(bottom, { depth: 2, bevelEnabled: false, curveSegments: 16 }));
  plate.rotateX(Math.PI / 2);
  const plateMesh = new THREE.Mesh(plate, shroud);
  plateMesh.position.y = -body + 1;
  g.add(plateMesh);
  for (const z of centres) {
    const f = buildFan(kit, {
      sizeMm: fanSize,
      color: '#17181b',
      rgb: false,
      thickness: 10,
      blades: 11,
      frameless: true,
      label: text.brand.split(' ')[0],
    });
    f.rotation.x = Math.PI / 2;
    f.position.set(-h / 2, -body + 4, z);
    g.add(f);
  }

  // power connector on the top edge (the cable is drawn with the others)
  const pc = powerConnector(specs);
  box(g, kit.plastic('#151619', 0.6), [10, 8, 24], [pc.x, pc.y - 1, pc.z]);
  // I/O bracket at the rear wall with port cut-outs
  const bracketH = Math.ceil(specs.slotWidth) * SLOT;
  box(g, kit.brushed('#a9adb3', 0.4), [20, bracketH, 1.2], [-12, 4 - bracketH / 2, -6]);
  for (let i = 0; i < 3; i++) box(g, dark, [10, 7, 1.4], [-12, -6 - i * 10, -6.2]);
  g.traverse((o) => {
    const m = o as THREE.Mesh;
    if (m.isMesh && !(m.material as THREE.Material).transparent) o.castShadow = o.receiveShadow = true;
  });
  return g;
}

function luminance(color: string): number {
  const c = new THREE.Color(color);
  return (c.r + c.g + c.b) / 3;
}

function brandAccent(brand: GpuSpecs['brand']): string {
  return brand === 'NVIDIA' ? '#76b900' : brand === 'AMD' ? '#e0303a' : brand === 'Intel' ? '#3a8ee6' : '#9aa0a8';
}
