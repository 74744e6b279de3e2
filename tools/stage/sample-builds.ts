/**
 * Hand-made builds for the dev snapshot script and tests (specs per src/model/part.ts).
 */
import type { Part } from '../../src/model/part.js';
import type { StageBuild } from '../../src/model/stage-contract.js';

const part = <C extends Part['category']>(category: C, id: string, specs: Part<C>['specs']): Part<C> => ({
  id,
  category,
  name: id,
  specs,
});

export const glassAirBuild: StageBuild = {
  parts: {
    PCCase: [
      part('PCCase', 'case1', {
        type: 'ATX Mid Tower',
        maxBoard: 'ATX',
        widthMm: 230,
        heightMm: 480,
        depthMm: 460,
        sidePanel: 'glass',
        color: '#1b1c1f',
        accentColor: '#4a4f57',
        maxGpuLengthMm: 380,
        psuShroud: true,
        rgb: false,
      }),
    ],
    Motherboard: [
      part('Motherboard', 'mb1', {
        formFactor: 'ATX',
        socket: 'AM5',
        color: '#1d1f22',
        memorySlots: 4,
        pcieX16Slots: 2,
        m2Slots: 3,
      }),
    ],
    CPU: [part('CPU', 'cpu1', { socket: 'AM5', brand: 'AMD', cores: 8 })],
    CPUCooler: [
      part('CPUCooler', 'cool1', {
        type: 'air',
        radiatorMm: 0,
        heightMm: 158,
        fanSizeMm: 120,
        fanCount: 2,
        color: '#c9ccd1',
        rgb: false,
      }),
    ],
    GPU: [
      part('GPU', 'gpu1', { lengthMm: 304, slotWidth: 2.7, fanCount: 3, color: '#2a2c30', rgb: true, brand: 'NVIDIA' }),
    ],
    RAM: [part('RAM', 'ram1', { modules: 2, capacityGb: 32, heightMm: 44, color: '#222326', rgb: true })],
    Storage: [part('Storage', 'ssd1', { formFactor: 'M.2', kind: 'SSD', capacityGb: 2000 })],
    PSU: [part('PSU', 'psu1', { formFactor: 'ATX', lengthMm: 160, wattage: 850, color: '#1a1b1e' })],
    CaseFan: [part('CaseFan', 'fan1', { sizeMm: 120, quantity: 3, color: '#1c1d20', rgb: true })],
  },
  state: null,
};

export const whiteAioBuild: StageBuild = {
  parts: {
    PCCase: [
      part('PCCase', 'case2', {
        type: 'ATX Mid Tower',
        maxBoard: 'ATX',
        widthMm: 240,
        heightMm: 500,
        depthMm: 480,
        sidePanel: 'glass',
        color: '#e8e9eb',
        accentColor: '#b8bcc2',
        maxGpuLengthMm: 400,
        psuShroud: true,
        rgb: true,
      }),
    ],
    Motherboard: [
      part('Motherboard', 'mb2', {
        formFactor: 'ATX',
        socket: 'LGA1700',
        color: '#e4e6e9',
        memorySlots: 4,
        pcieX16Slots: 1,
        m2Slots: 2,
      }),
    ],
    CPU: [part('CPU', 'cpu2', { socket: 'LGA1700', brand: 'Intel', cores: 16 })],
    CPUCooler: [
      part('CPUCooler', 'aio2', {
        type: 'liquid',
        radiatorMm: 360,
        heightMm: 0,
        fanSizeMm: 120,
        fanCount: 3,
        color: '#f0f0f2',
        rgb: true,
      }),
    ],
    GPU: [
      part('GPU', 'gpu2', { lengthMm: 336, slotWidth: 3.2, fanCount: 3, color: '#eceef0', rgb: true, brand: 'AMD' }),
    ],
    RAM: [part('RAM', 'ram2', { modules: 4, capacityGb: 64, heightMm: 46, color: '#f2f2f4', rgb: true })],
    Storage: [
      part('Storage', 'ssd2', { formFactor: 'M.2', kind: 'SSD', capacityGb: 2000 }),
      part('Storage', 'hdd2', { formFactor: '3.5', kind: 'HDD', capacityGb: 8000 }),
    ],
    PSU: [part('PSU', 'psu2', { formFactor: 'ATX', lengthMm: 180, wattage: 1000, color: '#e8e9eb' })],
    CaseFan: [part('CaseFan', 'fan2', { sizeMm: 120, quantity: 3, color: '#eeeeee', rgb: true })],
  },
  state: { rgb: { color: '#35c8ff', mode: 'static' } },
};

export const itxMeshBuild: StageBuild = {
  parts: {
    PCCase: [
      part('PCCase', 'case3', {
        type: 'Mini ITX Tower',
        maxBoard: 'Mini-ITX',
        widthMm: 200,
        heightMm: 350,
        depthMm: 370,
        sidePanel: 'mesh',
        color: '#3b4250',
        accentColor: '#c28a3a',
        maxGpuLengthMm: 320,
        psuShroud: false,
        rgb: false,
      }),
    ],
    Motherboard: [
      part('Motherboard', 'mb3', {
        formFactor: 'Mini-ITX',
        socket: 'AM5',
        color: '#2b2f36',
        memorySlots: 2,
        pcieX16Slots: 1,
        m2Slots: 1,
      }),
    ],
    CPU: [part('CPU', 'cpu3', { socket: 'AM5', brand: 'AMD', cores: 8 })],
    GPU: [
      part('GPU', 'gpu3', { lengthMm: 250, slotWidth: 2, fanCount: 2, color: '#3a3d42', rgb: false, brand: 'NVIDIA' }),
    ],
    RAM: [part('RAM', 'ram3', { modules: 2, capacityGb: 32, heightMm: 34, color: '#8a1c1c', rgb: false })],
    PSU: [part('PSU', 'psu3', { formFactor: 'SFX', lengthMm: 100, wattage: 750, color: '#1a1b1e' })],
    CaseFan: [part('CaseFan', 'fan3', { sizeMm: 140, quantity: 2, color: '#c28a3a', rgb: false })],
  },
  state: null,
};

export const SAMPLE_BUILDS: Record<string, StageBuild> = { glassAirBuild, whiteAioBuild, itxMeshBuild };
