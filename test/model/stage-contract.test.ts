import { describe, expect, it } from 'vitest';
import { renderOptionsSchema, resolveRenderOptions } from '../../src/model/render-options.js';
import {
  CAMERA_OFFSET_X,
  CAMERA_ZOOM,
  GRID_LIMITS,
  MAX_SIZE,
  PROFILES,
  SCENES,
} from '../../src/model/render-defaults.js';
import { parseStageOptions, StageOptionsError, toStageOptions } from '../../src/model/stage-contract.js';

const resolve = (o: unknown) => resolveRenderOptions(renderOptionsSchema.parse(o));
const base = () => toStageOptions(resolve({ format: 'sprite' }));
/** The problems parseStageOptions names for `input`, or [] when it accepts it. */
const problems = (input: unknown): string[] => {
  try {
    parseStageOptions(input);
    return [];
  } catch (err) {
    expect(err).toBeInstanceOf(StageOptionsError);
    return (err as StageOptionsError).problems;
  }
};

describe('toStageOptions', () => {
  it('takes the stage fields of resolved options and fills the stage switches', () => {
    const r = resolve({
      format: 'video',
      profile: 'flat',
      scene: 'night',
      cameraZoom: 1.5,
      gridSettings: { color: 'white' },
    });
    expect(toStageOptions(r)).toEqual({
      width: 1280,
      height: 720,
      profile: 'flat',
      scene: 'night',
      showBackground: true,
      showGrid: false,
      gridSettings: { cellThickness: 0.8, sectionThickness: 1.4, color: '#ffffff', fadeDistance: 20, renderOrder: -1 },
      winterMode: false,
      springMode: false,
      cameraOffsetX: 0,
      cameraZoom: 1.5,
      frames: 120,
      transparent: false,
      omit: [],
      warm: true,
    });
    expect(toStageOptions(r, { transparent: true, warm: false, omit: ['cables'] })).toMatchObject({
      transparent: true,
      warm: false,
      omit: ['cables'],
    });
  });
});

describe('parseStageOptions', () => {
  it('passes what Node resolved through unchanged', () => {
    const requests = [
      {},
      { format: 'sprite', frameQuality: 'high', width: 1920, height: 1080 },
      { profile: 'fast', scene: 'park', showBackground: false, showGrid: true, winterMode: true },
      {
        springMode: true,
        cameraOffsetX: -0.3,
        cameraZoom: 0.5,
        gridSettings: { fadeDistance: 0, renderOrder: 100, cellThickness: 10, color: '#ABC' },
      },
      ...PROFILES.map((profile) => ({ profile })),
      ...SCENES.map((scene) => ({ scene })),
    ];
    for (const request of requests) {
      for (const switches of [
        {},
        { transparent: true, warm: false, omit: ['cables' as const, 'aio-tubes' as const] },
      ]) {
        const sent = toStageOptions(resolve(request), switches);
        // through JSON, as it crosses into the page
        expect(parseStageOptions(JSON.parse(JSON.stringify(sent))), JSON.stringify(request)).toEqual(sent);
      }
    }
  });

  it('fills only the stage switches (transparent false, no omit, warm)', () => {
    const { transparent: _t, omit: _o, warm: _w, ...render } = base();
    expect(parseStageOptions(render)).toEqual({ ...render, transparent: false, omit: [], warm: true });
  });

  it('keeps no defaults of its own for render options: a missing field is refused', () => {
    expect(problems({})).toEqual(
      expect.arrayContaining([
        'width must be an integer in [1, 8192], got nothing',
        'showGrid must be true or false, got nothing',
      ]),
    );
    for (const field of [
      'width',
      'height',
      'profile',
      'scene',
      'showBackground',
      'showGrid',
      'gridSettings',
      'winterMode',
      'springMode',
      'cameraOffsetX',
      'cameraZoom',
      'frames',
    ] as const) {
      const o: Record<string, unknown> = { ...base() };
      delete o[field];
      expect(problems(o).join('; '), field).toContain(`${field}`);
    }
    expect(problems(null)).toContain('expected an object, got null');
  });

  it('refuses values outside what Node can send', () => {
    const bad: Array<[Record<string, unknown>, string]> = [
      [{ width: 0 }, 'width must be an integer in [1, 8192], got 0'],
      [{ width: MAX_SIZE + 1 }, 'width must be an integer'],
      [{ height: 511.5 }, 'height must be an integer'],
      [{ frames: 0 }, 'frames must be an integer'],
      [{ profile: 'cinema' }, 'profile must be one of cinematic, flat, fast, got "cinema"'],
      [{ scene: 42 }, 'scene must be one of sunset'],
      [{ showGrid: 'yes' }, 'showGrid must be true or false, got "yes"'],
      [{ cameraZoom: Number.NaN }, 'cameraZoom must be a finite number, got null'],
      [{ cameraOffsetX: '0.1' }, 'cameraOffsetX must be a finite number'],
      [{ winterMode: true, springMode: true }, 'winterMode and springMode are mutually exclusive'],
      [{ omit: ['fans'] }, 'omit[0] must be one of cables, aio-tubes, got "fans"'],
      [{ transparent: 1 }, 'transparent must be true or false'],
      [
        { gridSettings: { ...base().gridSettings, cellThickness: GRID_LIMITS.cellThickness.max + 1 } },
        'gridSettings.cellThickness must be a number in [0, 10]',
      ],
      [
        { gridSettings: { ...base().gridSettings, fadeDistance: -1 } },
        'gridSettings.fadeDistance must be a number in [0, 1000]',
      ],
      [
        { gridSettings: { ...base().gridSettings, renderOrder: 0.5 } },
        'gridSettings.renderOrder must be an integer in [-100, 100]',
      ],
      [{ gridSettings: { ...base().gridSettings, color: 'white' } }, 'gridSettings.color must be a #rrggbb colour'],
    ];
    for (const [patch, message] of bad)
      expect(problems({ ...base(), ...patch }).join('; '), JSON.stringify(patch)).toContain(message);
  });

  it('clamps as render-defaults.ts says: camera fields into their ranges, fadeDistance up to its drawn minimum', () => {
    expect(parseStageOptions({ ...base(), cameraOffsetX: 5, cameraZoom: -3 })).toMatchObject({
      cameraOffsetX: CAMERA_OFFSET_X.max,
      cameraZoom: CAMERA_ZOOM.min,
    });
    expect(parseStageOptions({ ...base(), cameraOffsetX: -5, cameraZoom: 30 })).toMatchObject({
      cameraOffsetX: CAMERA_OFFSET_X.min,
      cameraZoom: CAMERA_ZOOM.max,
    });
    expect(
      parseStageOptions({ ...base(), gridSettings: { ...base().gridSettings, fadeDistance: 0.1 } }).gridSettings
        .fadeDistance,
    ).toBe(GRID_LIMITS.fadeDistance.min);
  });
});
