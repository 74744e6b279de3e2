/**
 * Example models: for any part of a category that takes a model, a simple GLB sized from its
 * catalog specs that shows every convention an artist needs (docs/part-models.md): the authoring
 * frame, RGB materials by name (`RGB_*`), a glass panel by alpha, and a case's anchors. It is
 * what `render-farm models example` writes as a starting point (open it in Blender beside your
 * model), and what the benchmark uses for dense textured models (`triangles`, `texturePx`).
 */
import type { Node } from '@gltf-transform/core';
import { CASE_ANCHORS, expectedModelSizeMm, isModelCategory, type ModelCategory } from '../model/part-models.js';
import type { Category, SpecsByCategory } from '../model/part.js';
import { normalizeSpecs } from '../model/normalize-specs.js';
import { ModelRejectedError } from './model-errors.js';
import { ModelSketch, type BoxSpec, type Vec3 } from './model-sketch.js';

export interface ExampleOptions {
  /** about this many triangles (boxes subdivided evenly, with 1.5 mm ridges); default as few as the shapes need */
  triangles?: number;
  /** a checker texture of this many pixels a side on the main body; default none */
  texturePx?: number;
}

const mm = (v: number) => v / 1000;

/** The example model of `part`'s category, sized from its specs. */
export async function exampleModel(
  part: { id?: string; category: Category; specs?: unknown; name?: string },
  opts: ExampleOptions = {},
): Promise<ModelSketch> {
  const category = part.category;
  if (!isModelCategory(category))
    throw new ModelRejectedError(
      `${category} parts take no model (models are for ${['PCCase', 'Motherboard', 'CPUCooler', 'GPU', 'RAM', 'PSU', 'CaseFan'].join(', ')})`,
    );
  const specs = normalizeSpecs(category, { specs: part.specs ?? {} } as never, []);
  // draw once to count the boxes, then again subdivided to the triangle target
  const boxes = (await draw(category, specs, 1, undefined, 0)).boxes;
  const n = opts.triangles ? Math.max(1, Math.round(Math.sqrt(opts.triangles / (12 * boxes)))) : 1;
  return (await draw(category, specs, n, opts.texturePx, opts.triangles ? 0.0015 : 0)).sketch;
}

async function draw(
  category: ModelCategory,
  specs: SpecsByCategory[ModelCategory],
  subdivisions: number,
  texturePx: number | undefined,
  relief: number,
): Promise<{ sketch: ModelSketch; boxes: number }> {
  const sketch = new ModelSketch(category.toLowerCase());
  let boxes = 0;
  let textured = texturePx === undefined;
  const box = async (spec: BoxSpec, name: string): Promise<Node> => {
    boxes++;
    const s = { ...spec, subdivisions, relief };
    // the first box drawn is the main body: it carries the texture
    if (!textured) {
      textured = true;
      return sketch.texturedBox(texturePx!, { ...s, color: '#ffffff' }, name);
    }
    return sketch.box(s, name);
  };
  const [X, Y, Z] = expectedModelSizeMm(category, specs as never).map(mm) as Vec3;
  switch (category) {
    case 'PCCase': {
      const t = 0.005;
      const body = { color: '#1d1f22', material: 'painted_steel' };
      await box({ ...body, size: [X, t, Z], at: [0, t / 2, 0] }, 'floor');
      await box({ ...body, size: [X, t, Z], at: [0, Y - t / 2, 0] }, 'roof');
      await box({ ...body, size: [X, Y, t], at: [0, Y / 2, -Z / 2 + t / 2] }, 'rear');
      // a glass front, so the front fans show (a mesh front would be an alpha-textured material)
      await box(
        {
          size: [X - 2 * t, Y - 2 * t, 0.004],
          at: [0, Y / 2, Z / 2 - 0.002],
          color: '#c8d4dc',
          material: 'front_glass',
          alpha: 0.2,
        },
        'front',
      );
      await box({ ...body, size: [t, Y, Z], at: [X / 2 - t / 2, Y / 2, 0] }, 'tray_side_panel');
      // the window: glass by alpha (BLEND, opacity 0.2), drawn with the stage's glass
      await box(
        {
          size: [0.004, Y - 2 * t, Z - 2 * t],
          at: [-X / 2 + 0.002, Y / 2, 0],
          color: '#c8d4dc',
          material: 'glass',
          alpha: 0.2,
        },
        'window',
      );
      // an RGB strip down the front edge: takes the build's RGB colour and glows
      await box(
        {
          size: [0.006, Y * 0.8, 0.004],
          at: [-X / 2 + 0.01, Y / 2, Z / 2 + 0.002],
          color: '#ffffff',
          material: 'RGB_strip',
        },
        'front_strip',
      );
      // anchors where a standard ATX tower has them (the procedural layout's numbers)
      const trayX = X / 2 - mm(5 + 24);
      sketch.empty(CASE_ANCHORS.motherboardTray, [trayX - mm(8), Y - mm(5 + 30), -Z / 2 + mm(5 + 14)]);
      sketch.empty(CASE_ANCHORS.psuBay, [trayX - mm(12 + 75), mm(5 + 2 + 43), -Z / 2 + mm(5 + 2 + 80)]);
      const fan = 0.12;
      const front = Math.max(1, Math.min(3, Math.floor((Y - 0.05) / (fan + 0.005))));
      for (let i = 0; i < front; i++)
        sketch.empty(`${CASE_ANCHORS.fanPrefix}front_${i + 1}`, [-mm(5), Y - 0.1 - i * (fan + 0.005), Z / 2 - 0.02]);
      sketch.empty(`${CASE_ANCHORS.fanPrefix}rear_1`, [trayX - 0.09, Y - 0.1, -Z / 2 + 0.02]);
      break;
    }
    case 'GPU': {
      const body = {
        size: [X * 0.96, Y * 0.62, Z] as Vec3,
        at: [0, Y * 0.07, 0] as Vec3,
        color: '#2b2d31',
        material: 'shroud',
      };
      await box(body, 'shroud');
      await box(
        { size: [X * 0.96, Y * 0.06, Z * 0.98], at: [0, Y / 2 - Y * 0.03, 0], color: '#8a8d92', material: 'backplate' },
        'backplate',
      );
      const fans = Math.max(1, Math.min(3, Math.round(Z / 0.1)));
      for (let i = 0; i < fans; i++) {
        const d = Math.min(X * 0.8, (Z / fans) * 0.85);
        await box(
          {
            size: [d, Y * 0.18, d],
            at: [0, -Y / 2 + Y * 0.09, -Z / 2 + (i + 0.5) * (Z / fans)],
            color: '#121315',
            material: 'fan',
          },
          `fan_${i + 1}`,
        );
      }
      await box(
        { size: [0.004, Y * 0.12, Z * 0.6], at: [-X / 2 + 0.002, Y * 0.2, 0], color: '#ffffff', material: 'RGB_bar' },
        'light_bar',
      );
      await box({ size: [X, Y, 0.002], at: [0, 0, -Z / 2 - 0.001], color: '#b4b7bb', material: 'bracket' }, 'bracket');
      break;
    }
    case 'CaseFan': {
      await box({ size: [X, Y, Z], color: '#16171a', material: 'frame' }, 'frame');
      await box(
        { size: [X * 0.35, Y * 0.35, Z * 0.6], at: [0, 0, Z * 0.25], color: '#202226', material: 'hub' },
        'hub',
      );
      await box(
        { size: [X * 0.86, Y * 0.86, 0.003], at: [0, 0, Z / 2 + 0.0015], color: '#ffffff', material: 'RGB_ring' },
        'ring',
      );
      break;
    }
    case 'CPUCooler': {
      const s = specs as SpecsByCategory['CPUCooler'];
      if (s.type === 'liquid') {
        await box({ size: [X * 0.8, Y, Z], at: [X * 0.1, 0, 0], color: '#1b1c1f', material: 'pump_body' }, 'pump');
        await box(
          { size: [X * 0.2, Y * 0.8, Z * 0.8], at: [-X * 0.4, 0, 0], color: '#ffffff', material: 'RGB_cap' },
          'cap',
        );
      } else {
        await box(
          { size: [X * 0.9, Y, Z * 0.6], at: [-X * 0.05, 0, 0], color: '#c9ccd0', material: 'fins' },
          'fin_stack',
        );
        await box(
          { size: [X * 0.1, Y * 0.5, Z * 0.5], at: [X * 0.45, 0, 0], color: '#d8b070', material: 'copper_base' },
          'base',
        );
        await box(
          { size: [X * 0.9, Y, Z * 0.2], at: [-X * 0.05, 0, Z * 0.4], color: '#1a1b1e', material: 'fan' },
          'fan',
        );
        await box(
          { size: [0.004, Y * 0.9, Z * 0.6], at: [-X / 2, 0, 0], color: '#ffffff', material: 'RGB_top' },
          'top_cover',
        );
      }
      break;
    }
    case 'Motherboard': {
      const s = specs as SpecsByCategory['Motherboard'];
      await box({ size: [0.002, Y, Z], at: [X / 2 - 0.001, -Y / 2, Z / 2], color: s.color, material: 'pcb' }, 'pcb');
      await box(
        {
          size: [0.03, 0.03, Z * 0.5],
          at: [X / 2 - 0.017, -0.025, Z * 0.35],
          color: '#55585e',
          material: 'vrm_heatsink',
        },
        'vrm',
      );
      await box(
        {
          size: [0.012, Y * 0.45, 0.04],
          at: [X / 2 - 0.008, -Y * 0.3, Z * 0.72],
          color: '#2a2c30',
          material: 'dimm_slots',
        },
        'dimm_slots',
      );
      await box(
        { size: [0.01, 0.045, 0.045], at: [X / 2 - 0.007, -Y * 0.72, Z * 0.7], color: '#55585e', material: 'chipset' },
        'chipset',
      );
      break;
    }
    case 'RAM': {
      await box(
        { size: [X * 0.85, Y, Z], at: [X * 0.075, 0, 0], color: '#26282c', material: 'heatspreader' },
        'spreader',
      );
      await box(
        { size: [X * 0.15, Y * 0.8, Z * 0.95], at: [-X * 0.425, 0, 0], color: '#ffffff', material: 'RGB_bar' },
        'light_bar',
      );
      break;
    }
    case 'PSU': {
      await box({ size: [X, Y, Z], color: '#141517', material: 'housing' }, 'housing');
      await box(
        {
          size: [X * 0.8, 0.002, Math.min(Z, X) * 0.8],
          at: [0, -Y / 2 - 0.001, 0],
          color: '#3a3c40',
          material: 'fan_grill',
        },
        'grill',
      );
      break;
    }
  }
  return { sketch, boxes };
}
