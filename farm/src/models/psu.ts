/**
 * A power supply, centred at the origin: ATX 150x86, SFX 125x64 (width x height), length
 * from the data along z. A rounded painted housing, a side label drawn from the catalog name
 * (brand, wattage, efficiency), a fan grill underneath and modular sockets on the end facing
 * the case front (the end seen through a glass or mesh front).
 */
import * as THREE from 'three';
import type { PsuSpecs } from '../../../src/model/part.js';
import { canvasTexture, fitText, SANS } from '../util/canvas-texture.js';
import { box, cylinder, roundedBox } from '../util/geometry.js';
import type { MaterialKit } from '../util/materials.js';

export function psuSize(specs: PsuSpecs): [number, number, number] {
  const sfx = specs.formFactor.startsWith('SFX');
  return [sfx ? 125 : 150, sfx ? 64 : 86, specs.lengthMm];
}

/** "80+ Gold" and the like from the name, for the label. */
function efficiency(name: string): string {
  const m = /80\s*\+?\s*(plus)?\s*(white|bronze|silver|gold|platinum|titanium)/i.exec(name);
  return m ? `80 PLUS ${m[2]!.toUpperCase()}` : '';
}

function labelTexture(brand: string, wattage: number, rating: string, light: boolean): THREE.Texture | null {
  return canvasTexture(512, 256, (ctx, w, h) => {
    ctx.fillStyle = light ? '#e9eaec' : '#17181b';
    ctx.fillRect(0, 0, w, h);
    ctx.fillStyle = light ? '#2a2c30' : '#eceef1';
    ctx.textBaseline = 'middle';
    ctx.textAlign = 'left';
    fitText(ctx, brand.toUpperCase() || 'POWER', 28, h * 0.32, w * 0.6, 64, 'bold');
    ctx.font = `bold 84px ${SANS}`;
    ctx.textAlign = 'right';
    ctx.fillText(`${Math.round(wattage)}W`, w - 26, h * 0.62);
    ctx.textAlign = 'left';
    ctx.font = `bold 28px ${SANS}`;
    ctx.fillStyle = '#c9a227';
    if (rating) ctx.fillText(rating, 28, h * 0.78);
    ctx.fillStyle = light ? '#b9bcc2' : '#3a3c41';
    ctx.fillRect(28, h * 0.5, w * 0.35, 4);
  });
}

export function buildPsu(kit: MaterialKit, specs: PsuSpecs, name = ''): THREE.Group {
  const g = new THREE.Group();
  const [w, h, l] = psuSize(specs);
  const c = new THREE.Color(specs.color);
  const light = (c.r + c.g + c.b) / 3 > 0.5;
  roundedBox(g, kit.paint(specs.color, 0.5), [w, h, l], [0, 0, 0], 4, 2);
  // the label on the window side (-x)
  const brand = name.trim().split(/\s+/)[0] ?? '';
  const label = new THREE.Mesh(
    new THREE.PlaneGeometry(l * 0.72, h * 0.62),
    kit.textured(
      `psu-label:${brand}:${Math.round(specs.wattage)}:${efficiency(name)}:${light}`,
      () => labelTexture(brand, specs.wattage, efficiency(name), light),
      light ? '#e9eaec' : '#17181b',
      { roughness: 0.6, glow: 0.25 },
    ),
  );
  label.rotation.y = -Math.PI / 2;
  label.position.set(-w / 2 - 0.2, 0, 0);
  label.name = 'psu-label';
  g.add(label);
  // fan grill underneath: rings over a dark disc
  const fan = Math.min(w, l) * 0.8;
  cylinder(g, kit.solid('#0e0f11', 0.7, 0.2), fan / 2, 1, [0, -h / 2 - 0.5, 0], 'y', 32);
  for (let i = 1; i < 5; i++)
    cylinder(g, kit.metal('#6f747b', 0.5), (fan / 2) * (i / 5), 1.4, [0, -h / 2 - 0.6, 0], 'y', 28, true);
  // modular sockets on the end facing the case front, with their latches
  const socket = kit.plastic('#101113', 0.6);
  const latch = kit.plastic('#2a2b2f', 0.5);
  for (let i = 0; i < 8; i++) {
    const x = -w / 2 + 16 + (i % 4) * ((w - 32) / 3);
    const y = h / 4 - Math.floor(i / 4) * (h * 0.42);
    box(g, socket, [i < 4 ? 22 : 16, 10, 1.5], [x, y, l / 2 + 0.6]);
    box(g, latch, [4, 2.5, 1.8], [x, y + 6, l / 2 + 0.6]);
  }
  g.traverse((o) => (o.castShadow = o.receiveShadow = true));
  return g;
}
