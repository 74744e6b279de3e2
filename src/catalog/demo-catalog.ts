/**
 * The demo catalog seeded into every fresh database: made-up but plausible parts (fictional
 * brands, realistic sizes) chosen so that demo builds look different when rendered: case
 * sizes and panels, board form factors, air towers vs AIOs, GPU lengths and fan counts,
 * RAM kits, storage form factors and fan packs. Not derived from OpenDB.
 *
 * IDs are fixed literals so share codes, cached renders and docs stay valid across seeds.
 */
import type { Category, Part, PartIdMap, SpecsByCategory } from '../model/part.js';
import type { InteractiveState } from '../model/interactive-state.js';
import type { StageBuild } from '../model/stage-contract.js';

/** A saved demo build. */
export interface DemoBuild {
  shareCode: string;
  name: string;
  description: string;
  parts: PartIdMap;
  interactiveState?: InteractiveState;
}

/** Mnemonic -> part ID; builds refer to parts through these. */
export const DEMO_IDS = {
  // cases
  caseAeroGlass: 'adp88gxul',
  caseAeroGlassWhite: 'xlx76gdlw',
  caseTitanFull: '7e9pwlike',
  caseVentoMesh: 'bgmmbze4a',
  caseCubeItx: 'ifqiuktrh',
  caseSlabItx: '78i6w1nvf',
  caseCompactMatx: '2v9riaj0h',
  caseSteelSolid: 'mjkyiz2yv',
  casePrismRgb: 'n0orwzc1l',
  caseSakuraPink: 'tlv6342pk',
  // motherboards
  boardX670Atx: 'f0bfsbqdb',
  boardZ790Atx: 'wv3f5c0oh',
  boardB650White: 'kxqms9308',
  boardB760Matx: '5p4mo7fgp',
  boardB650Itx: '5gx83idzr',
  boardX670Eatx: 'brrcjzxgn',
  boardA620Green: 'buglnpra2',
  boardZ790Itx: 'h5jr78lvn',
  // CPUs
  cpuR9: 'j8ci0r2cj',
  cpuR7: '6h3vq07o2',
  cpuR5: 'cjj1o4cld',
  cpuI9: '0nowl0elu',
  cpuI5: '3yjjky5yn',
  cpuI3: 'ogxb0gyol',
  // coolers
  coolerTowerDual: 'ezmpqaxzu',
  coolerTowerSingle: '7lv93b6bq',
  coolerTowerWhite: 'y7d1xhcyt',
  coolerLowProfile: 'n7m7q00ig',
  coolerAio120: '4emmc6weu',
  coolerAio240White: 'r1octl3wj',
  coolerAio280Rgb: '73y2p6kjk',
  coolerAio360: 'hi7uy8hyv',
  coolerBudgetTower: 'ci2e5ul1r',
  // GPUs
  gpuMini1Fan: 'imlcu82xh',
  gpuCompact2Fan: 'qi5dugsl3',
  gpuDual2Fan: 'f24xmekd3',
  gpuTriple3Fan: 'okgxgd18p',
  gpuFlagship: 'pkdhz46y3',
  gpuWhite3Fan: 'ti8jcd4pw',
  gpuRgb3Fan: '0ivotal7v',
  gpuRadeon2Fan: 'lop6ggo8w',
  gpuArcBlower: 'jgm1igpuw',
  // RAM
  ramLow2x16: 'viffg7rif',
  ramRgb2x16: '7aa4aodzc',
  ramWhiteRgb2x16: '50u0wi9lk',
  ramTall4x16: 'q4q4yj3mx',
  ramSingle1x8: '0abaa5m58',
  ramRed2x8: '1bqkgwrfn',
  ramGreyLow2x32: '18lmd5il6',
  ramGoldRgb4x8: 'zlq0ug1k5',
  ramItx2x24: '3mb87f0h7',
  // storage
  ssdNvme2tb: 'apftrbpy2',
  ssdNvme1tb: 'v1aoeteg4',
  ssdSata500: 'suu6p9510',
  hdd4tb: 'doimhpe3x',
  hdd12tb: 'oiz09t4st',
  ssdNvme4tb: 'gbmdoosoe',
  // PSUs
  psu850: 'mobxin7vj',
  psu1000: '1zcjgymwx',
  psu650: '3w7ualy9k',
  psu550: '1pb7d36u5',
  psuSfx750: 'gmalefcsy',
  psuWhite850: 'u7hp929o2',
  psuSfxl850: 'jjsr7rwy7',
  // case fans
  fan120Black: '4tvgsy9hv',
  fan120Rgb3: 'y7bz5459j',
  fan120White3: '302wd01ox',
  fan140Black: 'rskqnnium',
  fan140Rgb3: '9iwq4o8z9',
  fan140Brown: 'w9611ba41',
  fan120Black3: '48g44y745',
  fan120WhiteRgb: 'nnj9jnztj',
} as const;

const I = DEMO_IDS;

function part<C extends Category>(category: C, id: string, name: string, specs: SpecsByCategory[C]): Part<C> {
  return { id, category, name, specs };
}

const BLACK = '#1b1c1e';
const WHITE = '#eeeff1';
const GREY = '#7c8087';

const cases: Part<'PCCase'>[] = [
  part('PCCase', I.caseAeroGlass, 'Northwind Aero 500 ATX Mid Tower Tempered Glass Black', {
    type: 'ATX Mid Tower',
    maxBoard: 'ATX',
    widthMm: 230,
    heightMm: 485,
    depthMm: 470,
    sidePanel: 'glass',
    color: BLACK,
    accentColor: GREY,
    maxGpuLengthMm: 380,
    psuShroud: true,
    rgb: false,
  }),
  part('PCCase', I.caseAeroGlassWhite, 'Northwind Aero 500 ATX Mid Tower Tempered Glass White', {
    type: 'ATX Mid Tower',
    maxBoard: 'ATX',
    widthMm: 230,
    heightMm: 485,
    depthMm: 470,
    sidePanel: 'glass',
    color: WHITE,
    accentColor: WHITE,
    maxGpuLengthMm: 380,
    psuShroud: true,
    rgb: false,
  }),
  part('PCCase', I.caseTitanFull, 'Kestrel Titan XL E-ATX Full Tower Glass Black', {
    type: 'ATX Full Tower',
    maxBoard: 'E-ATX',
    widthMm: 250,
    heightMm: 590,
    depthMm: 560,
    sidePanel: 'glass',
    color: BLACK,
    accentColor: BLACK,
    maxGpuLengthMm: 450,
    psuShroud: true,
    rgb: false,
  }),
  part('PCCase', I.caseVentoMesh, 'Arcline Vento Airflow ATX Mid Tower Mesh Black', {
    type: 'ATX Mid Tower',
    maxBoard: 'ATX',
    widthMm: 220,
    heightMm: 470,
    depthMm: 450,
    sidePanel: 'mesh',
    color: BLACK,
    accentColor: '#2a2c30',
    maxGpuLengthMm: 360,
    psuShroud: true,
    rgb: false,
  }),
  part('PCCase', I.caseCubeItx, 'Fenwick Cube S Mini ITX Tower Glass Grey', {
    type: 'Mini ITX Tower',
    maxBoard: 'Mini-ITX',
    widthMm: 190,
    heightMm: 340,
    depthMm: 350,
    sidePanel: 'glass',
    color: GREY,
    accentColor: BLACK,
    maxGpuLengthMm: 320,
    psuShroud: false,
    rgb: false,
  }),
  part('PCCase', I.caseSlabItx, 'Fenwick Slab 10L Mini ITX Desktop Aluminium Silver', {
    type: 'Mini ITX Desktop',
    maxBoard: 'Mini-ITX',
    widthMm: 300,
    heightMm: 150,
    depthMm: 330,
    sidePanel: 'solid',
    color: '#c3c6cb',
    accentColor: BLACK,
    maxGpuLengthMm: 260,
    psuShroud: false,
    rgb: false,
  }),
  part('PCCase', I.caseCompactMatx, 'Voltra Compact M Micro ATX Mini Tower Mesh Black', {
    type: 'Micro ATX Mini Tower',
    maxBoard: 'Micro ATX',
    widthMm: 205,
    heightMm: 400,
    depthMm: 385,
    sidePanel: 'mesh',
    color: BLACK,
    accentColor: '#b3202a',
    maxGpuLengthMm: 320,
    psuShroud: true,
    rgb: false,
  }),
  part('PCCase', I.caseSteelSolid, 'Quietline Studio ATX Mid Tower Solid Panel Grey', {
    type: 'ATX Mid Tower',
    maxBoard: 'ATX',
    widthMm: 235,
    heightMm: 495,
    depthMm: 490,
    sidePanel: 'solid',
    color: GREY,
    accentColor: BLACK,
    maxGpuLengthMm: 400,
    psuShroud: true,
    rgb: false,
  }),
  part('PCCase', I.casePrismRgb, 'Lumen Prism 360 ATX Mid Tower Dual Glass ARGB Black', {
    type: 'ATX Mid Tower',
    maxBoard: 'ATX',
    widthMm: 285,
    heightMm: 450,
    depthMm: 460,
    sidePanel: 'glass',
    color: BLACK,
    accentColor: '#6f3fb8',
    maxGpuLengthMm: 410,
    psuShroud: true,
    rgb: true,
  }),
  part('PCCase', I.caseSakuraPink, 'Voltra Bloom Micro ATX Mid Tower Glass Pink', {
    type: 'Micro ATX Mid Tower',
    maxBoard: 'Micro ATX',
    widthMm: 215,
    heightMm: 440,
    depthMm: 420,
    sidePanel: 'glass',
    color: '#f0a1c2',
    accentColor: WHITE,
    maxGpuLengthMm: 340,
    psuShroud: true,
    rgb: true,
  }),
];

const boards: Part<'Motherboard'>[] = [
  part('Motherboard', I.boardX670Atx, 'Arcline X670 Strike ATX AM5 Black', {
    formFactor: 'ATX',
    socket: 'AM5',
    color: BLACK,
    memorySlots: 4,
    pcieX16Slots: 2,
    m2Slots: 4,
  }),
  part('Motherboard', I.boardZ790Atx, 'Kestrel Z790 Forge ATX LGA 1700 Black / Grey', {
    formFactor: 'ATX',
    socket: 'LGA 1700',
    color: '#2a2c30',
    memorySlots: 4,
    pcieX16Slots: 3,
    m2Slots: 5,
  }),
  part('Motherboard', I.boardB650White, 'Northwind B650 Frost ATX AM5 White', {
    formFactor: 'ATX',
    socket: 'AM5',
    color: WHITE,
    memorySlots: 4,
    pcieX16Slots: 2,
    m2Slots: 3,
  }),
  part('Motherboard', I.boardB760Matx, 'Voltra B760M Pro Micro ATX LGA 1700 Black', {
    formFactor: 'Micro ATX',
    socket: 'LGA 1700',
    color: BLACK,
    memorySlots: 4,
    pcieX16Slots: 2,
    m2Slots: 2,
  }),
  part('Motherboard', I.boardB650Itx, 'Fenwick B650I Edge Mini-ITX AM5 Black', {
    formFactor: 'Mini-ITX',
    socket: 'AM5',
    color: BLACK,
    memorySlots: 2,
    pcieX16Slots: 1,
    m2Slots: 2,
  }),
  part('Motherboard', I.boardX670Eatx, 'Kestrel X670E Apex Extreme E-ATX AM5 Black / Gold', {
    formFactor: 'E-ATX',
    socket: 'AM5',
    color: '#141414',
    memorySlots: 4,
    pcieX16Slots: 3,
    m2Slots: 5,
  }),
  part('Motherboard', I.boardA620Green, 'Basis A620M-E Micro ATX AM5 Green', {
    formFactor: 'Micro ATX',
    socket: 'AM5',
    color: '#2f6f45',
    memorySlots: 2,
    pcieX16Slots: 1,
    m2Slots: 1,
  }),
  part('Motherboard', I.boardZ790Itx, 'Lumen Z790I Aurora Mini-ITX LGA 1700 Blue', {
    formFactor: 'Mini-ITX',
    socket: 'LGA 1700',
    color: '#23395d',
    memorySlots: 2,
    pcieX16Slots: 1,
    m2Slots: 2,
  }),
];

const cpus: Part<'CPU'>[] = [
  part('CPU', I.cpuR9, 'AMD Ryzen 9 9950X 16-Core Processor', { socket: 'AM5', brand: 'AMD', cores: 16 }),
  part('CPU', I.cpuR7, 'AMD Ryzen 7 9800X3D 8-Core Processor', { socket: 'AM5', brand: 'AMD', cores: 8 }),
  part('CPU', I.cpuR5, 'AMD Ryzen 5 8600G 6-Core Processor', { socket: 'AM5', brand: 'AMD', cores: 6 }),
  part('CPU', I.cpuI9, 'Intel Core i9-14900K 24-Core Processor', { socket: 'LGA 1700', brand: 'Intel', cores: 24 }),
  part('CPU', I.cpuI5, 'Intel Core i5-14600K 14-Core Processor', { socket: 'LGA 1700', brand: 'Intel', cores: 14 }),
  part('CPU', I.cpuI3, 'Intel Core i3-14100F 4-Core Processor', { socket: 'LGA 1700', brand: 'Intel', cores: 4 }),
];

const coolers: Part<'CPUCooler'>[] = [
  part('CPUCooler', I.coolerTowerDual, 'Quietline Twin Peak 140 Dual Tower Air Cooler Black', {
    type: 'air',
    radiatorMm: 0,
    heightMm: 165,
    fanSizeMm: 140,
    fanCount: 2,
    color: BLACK,
    rgb: false,
  }),
  part('CPUCooler', I.coolerTowerSingle, 'Arcline Frostbite 120 Single Tower Air Cooler', {
    type: 'air',
    radiatorMm: 0,
    heightMm: 155,
    fanSizeMm: 120,
    fanCount: 1,
    color: GREY,
    rgb: false,
  }),
  part('CPUCooler', I.coolerTowerWhite, 'Northwind Glacier 120 ARGB Tower Air Cooler White', {
    type: 'air',
    radiatorMm: 0,
    heightMm: 157,
    fanSizeMm: 120,
    fanCount: 2,
    color: WHITE,
    rgb: true,
  }),
  part('CPUCooler', I.coolerLowProfile, 'Fenwick Flat 47 Low Profile Air Cooler', {
    type: 'air',
    radiatorMm: 0,
    heightMm: 47,
    fanSizeMm: 92,
    fanCount: 1,
    color: BLACK,
    rgb: false,
  }),
  part('CPUCooler', I.coolerAio120, 'Kestrel Hydro 120 Liquid Cooler Black', {
    type: 'liquid',
    radiatorMm: 120,
    heightMm: 55,
    fanSizeMm: 120,
    fanCount: 1,
    color: BLACK,
    rgb: false,
  }),
  part('CPUCooler', I.coolerAio240White, 'Northwind Hydro 240 ARGB Liquid Cooler White', {
    type: 'liquid',
    radiatorMm: 240,
    heightMm: 60,
    fanSizeMm: 120,
    fanCount: 2,
    color: WHITE,
    rgb: true,
  }),
  part('CPUCooler', I.coolerAio280Rgb, 'Lumen Vortex 280 ARGB Liquid Cooler Black', {
    type: 'liquid',
    radiatorMm: 280,
    heightMm: 62,
    fanSizeMm: 140,
    fanCount: 2,
    color: BLACK,
    rgb: true,
  }),
  part('CPUCooler', I.coolerAio360, 'Kestrel Hydro Elite 360 Liquid Cooler Black', {
    type: 'liquid',
    radiatorMm: 360,
    heightMm: 58,
    fanSizeMm: 120,
    fanCount: 3,
    color: BLACK,
    rgb: false,
  }),
  part('CPUCooler', I.coolerBudgetTower, 'Basis Breeze 90 Compact Tower Air Cooler', {
    type: 'air',
    radiatorMm: 0,
    heightMm: 130,
    fanSizeMm: 92,
    fanCount: 1,
    color: '#2a5fc4',
    rgb: false,
  }),
];

const gpus: Part<'GPU'>[] = [
  part('GPU', I.gpuMini1Fan, 'Fenwick GeForce RTX 4060 8GB Mini ITX 1-Fan', {
    lengthMm: 170,
    slotWidth: 2,
    fanCount: 1,
    color: BLACK,
    rgb: false,
    brand: 'NVIDIA',
  }),
  part('GPU', I.gpuCompact2Fan, 'Voltra GeForce RTX 4060 Ti 8GB Twin Compact', {
    lengthMm: 200,
    slotWidth: 2,
    fanCount: 2,
    color: BLACK,
    rgb: false,
    brand: 'NVIDIA',
  }),
  part('GPU', I.gpuDual2Fan, 'Arcline GeForce RTX 4070 Super 12GB Dual OC', {
    lengthMm: 245,
    slotWidth: 2.5,
    fanCount: 2,
    color: GREY,
    rgb: false,
    brand: 'NVIDIA',
  }),
  part('GPU', I.gpuTriple3Fan, 'Kestrel GeForce RTX 4070 Ti Super 16GB Storm 3X', {
    lengthMm: 305,
    slotWidth: 3,
    fanCount: 3,
    color: BLACK,
    rgb: false,
    brand: 'NVIDIA',
  }),
  part('GPU', I.gpuFlagship, 'Kestrel GeForce RTX 4090 24GB Storm Extreme', {
    lengthMm: 340,
    slotWidth: 3.5,
    fanCount: 3,
    color: '#141414',
    rgb: true,
    brand: 'NVIDIA',
  }),
  part('GPU', I.gpuWhite3Fan, 'Northwind Radeon RX 7800 XT 16GB Frost White', {
    lengthMm: 300,
    slotWidth: 2.5,
    fanCount: 3,
    color: WHITE,
    rgb: true,
    brand: 'AMD',
  }),
  part('GPU', I.gpuRgb3Fan, 'Lumen Radeon RX 7900 XTX 24GB Aurora ARGB', {
    lengthMm: 325,
    slotWidth: 3,
    fanCount: 3,
    color: BLACK,
    rgb: true,
    brand: 'AMD',
  }),
  part('GPU', I.gpuRadeon2Fan, 'Voltra Radeon RX 7600 8GB Duo Red', {
    lengthMm: 230,
    slotWidth: 2,
    fanCount: 2,
    color: '#b3202a',
    rgb: false,
    brand: 'AMD',
  }),
  part('GPU', I.gpuArcBlower, 'Basis Arc B580 12GB Blower', {
    lengthMm: 215,
    slotWidth: 2,
    fanCount: 1,
    color: GREY,
    rgb: false,
    brand: 'Intel',
  }),
];

const ram: Part<'RAM'>[] = [
  part('RAM', I.ramLow2x16, 'Quietline Flat DDR5-6000 32GB (2 x 16GB) Low Profile Black', {
    modules: 2,
    capacityGb: 32,
    heightMm: 34,
    color: BLACK,
    rgb: false,
  }),
  part('RAM', I.ramRgb2x16, 'Lumen Halo RGB DDR5-6400 32GB (2 x 16GB) Black', {
    modules: 2,
    capacityGb: 32,
    heightMm: 44,
    color: BLACK,
    rgb: true,
  }),
  part('RAM', I.ramWhiteRgb2x16, 'Northwind Frost RGB DDR5-6000 32GB (2 x 16GB) White', {
    modules: 2,
    capacityGb: 32,
    heightMm: 44,
    color: WHITE,
    rgb: true,
  }),
  part('RAM', I.ramTall4x16, 'Kestrel Citadel DDR5-6400 64GB (4 x 16GB) Tall Heatspreader', {
    modules: 4,
    capacityGb: 64,
    heightMm: 56,
    color: '#141414',
    rgb: false,
  }),
  part('RAM', I.ramSingle1x8, 'Basis Value DDR5-4800 8GB (1 x 8GB) Green PCB', {
    modules: 1,
    capacityGb: 8,
    heightMm: 31,
    color: '#2f6f45',
    rgb: false,
  }),
  part('RAM', I.ramRed2x8, 'Voltra Sprint DDR4-3200 16GB (2 x 8GB) Red', {
    modules: 2,
    capacityGb: 16,
    heightMm: 40,
    color: '#b3202a',
    rgb: false,
  }),
  part('RAM', I.ramGreyLow2x32, 'Arcline Slate DDR5-5600 64GB (2 x 32GB) Grey', {
    modules: 2,
    capacityGb: 64,
    heightMm: 33,
    color: GREY,
    rgb: false,
  }),
  part('RAM', I.ramGoldRgb4x8, 'Lumen Regal RGB DDR5-6000 32GB (4 x 8GB) Gold', {
    modules: 4,
    capacityGb: 32,
    heightMm: 46,
    color: '#c9a23a',
    rgb: true,
  }),
  part('RAM', I.ramItx2x24, 'Fenwick Compact DDR5-6000 48GB (2 x 24GB) Black', {
    modules: 2,
    capacityGb: 48,
    heightMm: 36,
    color: BLACK,
    rgb: false,
  }),
];

const storage: Part<'Storage'>[] = [
  part('Storage', I.ssdNvme2tb, 'Arcline Velocity 2TB M.2-2280 NVMe PCIe 4.0 SSD', {
    formFactor: 'M.2',
    kind: 'SSD',
    capacityGb: 2000,
  }),
  part('Storage', I.ssdNvme1tb, 'Voltra Rapid 1TB M.2-2280 NVMe PCIe 4.0 SSD', {
    formFactor: 'M.2',
    kind: 'SSD',
    capacityGb: 1000,
  }),
  part('Storage', I.ssdSata500, 'Basis Everyday 500GB 2.5" SATA SSD', {
    formFactor: '2.5',
    kind: 'SSD',
    capacityGb: 500,
  }),
  part('Storage', I.hdd4tb, 'Quietline Archive 4TB 3.5" 5400 RPM HDD', {
    formFactor: '3.5',
    kind: 'HDD',
    capacityGb: 4000,
  }),
  part('Storage', I.hdd12tb, 'Kestrel Vault 12TB 3.5" 7200 RPM HDD', {
    formFactor: '3.5',
    kind: 'HDD',
    capacityGb: 12000,
  }),
  part('Storage', I.ssdNvme4tb, 'Kestrel Blaze 4TB M.2-2280 NVMe PCIe 5.0 SSD', {
    formFactor: 'M.2',
    kind: 'SSD',
    capacityGb: 4000,
  }),
];

const psus: Part<'PSU'>[] = [
  part('PSU', I.psu850, 'Arcline Core 850W ATX 80+ Gold Fully Modular', {
    formFactor: 'ATX',
    lengthMm: 150,
    wattage: 850,
    color: BLACK,
  }),
  part('PSU', I.psu1000, 'Kestrel Prime 1000W ATX 3.1 80+ Platinum', {
    formFactor: 'ATX',
    lengthMm: 170,
    wattage: 1000,
    color: BLACK,
  }),
  part('PSU', I.psu650, 'Voltra Steady 650W ATX 80+ Bronze', {
    formFactor: 'ATX',
    lengthMm: 140,
    wattage: 650,
    color: BLACK,
  }),
  part('PSU', I.psu550, 'Basis Power 550W ATX 80+ White', {
    formFactor: 'ATX',
    lengthMm: 140,
    wattage: 550,
    color: GREY,
  }),
  part('PSU', I.psuSfx750, 'Fenwick Mini 750W SFX 80+ Gold', {
    formFactor: 'SFX',
    lengthMm: 100,
    wattage: 750,
    color: BLACK,
  }),
  part('PSU', I.psuWhite850, 'Northwind Pure 850W ATX 80+ Gold White', {
    formFactor: 'ATX',
    lengthMm: 150,
    wattage: 850,
    color: WHITE,
  }),
  part('PSU', I.psuSfxl850, 'Fenwick Mini L 850W SFX-L 80+ Platinum', {
    formFactor: 'SFX-L',
    lengthMm: 130,
    wattage: 850,
    color: BLACK,
  }),
];

const fans: Part<'CaseFan'>[] = [
  part('CaseFan', I.fan120Black, 'Quietline Silent Wing 120mm Black', {
    sizeMm: 120,
    quantity: 1,
    color: BLACK,
    rgb: false,
  }),
  part('CaseFan', I.fan120Rgb3, 'Lumen Halo 120mm ARGB Black 3-Pack', {
    sizeMm: 120,
    quantity: 3,
    color: BLACK,
    rgb: true,
  }),
  part('CaseFan', I.fan120White3, 'Northwind Breeze 120mm White 3-Pack', {
    sizeMm: 120,
    quantity: 3,
    color: WHITE,
    rgb: false,
  }),
  part('CaseFan', I.fan140Black, 'Quietline Silent Wing 140mm Black', {
    sizeMm: 140,
    quantity: 1,
    color: BLACK,
    rgb: false,
  }),
  part('CaseFan', I.fan140Rgb3, 'Lumen Halo 140mm ARGB Black 3-Pack', {
    sizeMm: 140,
    quantity: 3,
    color: BLACK,
    rgb: true,
  }),
  part('CaseFan', I.fan140Brown, 'Fenwick Classic 140mm Brown / Beige', {
    sizeMm: 140,
    quantity: 1,
    color: '#7a5233',
    rgb: false,
  }),
  part('CaseFan', I.fan120Black3, 'Arcline Flow 120mm Black 3-Pack', {
    sizeMm: 120,
    quantity: 3,
    color: BLACK,
    rgb: false,
  }),
  part('CaseFan', I.fan120WhiteRgb, 'Northwind Breeze 120mm ARGB White', {
    sizeMm: 120,
    quantity: 1,
    color: WHITE,
    rgb: true,
  }),
];

/** Every demo part. */
export const DEMO_PARTS: readonly Part[] = [
  ...cases,
  ...boards,
  ...cpus,
  ...coolers,
  ...gpus,
  ...ram,
  ...storage,
  ...psus,
  ...fans,
];

/** Demo builds: each a complete plausible PC whose parts fit together. */
export const DEMO_BUILDS: readonly DemoBuild[] = [
  {
    shareCode: 'DEMO-GLASS',
    name: 'Glass mid tower gamer',
    description:
      'ATX mid tower with a tempered glass side, dual-tower air cooler, 3-fan RTX card and RGB fans up front.',
    parts: {
      PCCase: [I.caseAeroGlass],
      Motherboard: [I.boardX670Atx],
      CPU: [I.cpuR7],
      CPUCooler: [I.coolerTowerDual],
      GPU: [I.gpuTriple3Fan],
      RAM: [I.ramRgb2x16],
      Storage: [I.ssdNvme2tb],
      PSU: [I.psu850],
      CaseFan: [I.fan120Rgb3, I.fan120Black],
    },
    interactiveState: {
      fans: [{ slot: 'front-1' }, { slot: 'front-2' }, { slot: 'front-3' }, { slot: 'rear-1', partId: I.fan120Black }],
      rgb: { color: '#35c8ff', mode: 'static' },
    },
  },
  {
    shareCode: 'DEMO-ITX',
    name: 'Small form factor',
    description: 'Mini-ITX tower with an SFX power supply, a compact two-fan card and a low-profile cooler.',
    parts: {
      PCCase: [I.caseCubeItx],
      Motherboard: [I.boardB650Itx],
      CPU: [I.cpuR5],
      CPUCooler: [I.coolerLowProfile],
      GPU: [I.gpuCompact2Fan],
      RAM: [I.ramItx2x24],
      Storage: [I.ssdNvme1tb],
      PSU: [I.psuSfx750],
      CaseFan: [I.fan120Black],
    },
  },
  {
    shareCode: 'DEMO-WHITE',
    name: 'All white',
    description: 'White case, board, 240 mm AIO, GPU, RGB memory and fans.',
    parts: {
      PCCase: [I.caseAeroGlassWhite],
      Motherboard: [I.boardB650White],
      CPU: [I.cpuR7],
      CPUCooler: [I.coolerAio240White],
      GPU: [I.gpuWhite3Fan],
      RAM: [I.ramWhiteRgb2x16],
      Storage: [I.ssdNvme2tb],
      PSU: [I.psuWhite850],
      CaseFan: [I.fan120White3],
    },
    interactiveState: {
      fans: [{ slot: 'front-1' }, { slot: 'front-2' }, { slot: 'front-3' }],
      radiator: { slot: 'top' },
      rgb: { color: '#f4f0ff', mode: 'static' },
    },
  },
  {
    shareCode: 'DEMO-AIO360',
    name: 'Full tower workstation',
    description: 'E-ATX full tower with a 360 mm AIO on top, a 3.5-slot flagship card, four DIMMs and a data drive.',
    parts: {
      PCCase: [I.caseTitanFull],
      Motherboard: [I.boardX670Eatx],
      CPU: [I.cpuR9],
      CPUCooler: [I.coolerAio360],
      GPU: [I.gpuFlagship],
      RAM: [I.ramTall4x16],
      Storage: [I.ssdNvme4tb, I.hdd12tb],
      PSU: [I.psu1000],
      CaseFan: [I.fan140Rgb3, I.fan140Black],
    },
    interactiveState: {
      fans: [{ slot: 'front-1' }, { slot: 'front-2' }, { slot: 'front-3' }, { slot: 'rear-1', partId: I.fan140Black }],
      radiator: { slot: 'top' },
      rgb: { color: '#ff4d2e', mode: 'static' },
    },
  },
  {
    shareCode: 'DEMO-BUDGET',
    name: 'Budget micro ATX',
    description: 'Mesh micro ATX mini tower, a single stick of memory, a one-fan card and a SATA SSD.',
    parts: {
      PCCase: [I.caseCompactMatx],
      Motherboard: [I.boardA620Green],
      CPU: [I.cpuR5],
      CPUCooler: [I.coolerBudgetTower],
      GPU: [I.gpuMini1Fan],
      RAM: [I.ramSingle1x8],
      Storage: [I.ssdSata500],
      PSU: [I.psu550],
      CaseFan: [I.fan120Black],
    },
  },
  {
    shareCode: 'DEMO-RGB',
    name: 'RGB showcase',
    description: 'Dual-glass ARGB case, 280 mm AIO, ARGB card, gold RGB memory and 140 mm ARGB fans.',
    parts: {
      PCCase: [I.casePrismRgb],
      Motherboard: [I.boardZ790Atx],
      CPU: [I.cpuI9],
      CPUCooler: [I.coolerAio280Rgb],
      GPU: [I.gpuRgb3Fan],
      RAM: [I.ramGoldRgb4x8],
      Storage: [I.ssdNvme2tb],
      PSU: [I.psu1000],
      CaseFan: [I.fan140Rgb3, I.fan140Rgb3],
    },
    interactiveState: {
      fans: [
        { slot: 'side-1' },
        { slot: 'side-2' },
        { slot: 'front-1' },
        { slot: 'bottom-1' },
        { slot: 'bottom-2' },
        { slot: 'rear-1' },
      ],
      radiator: { slot: 'top' },
      rgb: { color: '#c13cff', mode: 'static' },
    },
  },
  {
    shareCode: 'DEMO-MESH',
    name: 'Airflow mesh',
    description: 'Mesh-panel mid tower, single-tower air cooler, two-fan card and two memory kits (four sticks).',
    parts: {
      PCCase: [I.caseVentoMesh],
      Motherboard: [I.boardZ790Atx],
      CPU: [I.cpuI5],
      CPUCooler: [I.coolerTowerSingle],
      GPU: [I.gpuDual2Fan],
      RAM: [I.ramRed2x8, I.ramRed2x8],
      Storage: [I.ssdNvme1tb, I.hdd4tb],
      PSU: [I.psu650],
      CaseFan: [I.fan140Black, I.fan140Black],
    },
  },
  {
    shareCode: 'DEMO-STUDIO',
    name: 'Quiet studio',
    description: 'Solid-panel grey tower for a silent office: big air cooler, Arc blower card, low-profile memory.',
    parts: {
      PCCase: [I.caseSteelSolid],
      Motherboard: [I.boardB760Matx],
      CPU: [I.cpuI3],
      CPUCooler: [I.coolerTowerDual],
      GPU: [I.gpuArcBlower],
      RAM: [I.ramGreyLow2x32],
      Storage: [I.ssdNvme1tb],
      PSU: [I.psu550],
      CaseFan: [I.fan140Brown],
    },
  },
];

/** The demo build with `shareCode` as the stage draws it: parts resolved, saved state kept (no database). */
export function demoStageBuild(shareCode = 'DEMO-GLASS'): StageBuild {
  const demo = DEMO_BUILDS.find((b) => b.shareCode === shareCode);
  if (!demo) throw new Error(`no demo build ${shareCode}`);
  const byId = new Map(DEMO_PARTS.map((p) => [p.id, p]));
  const parts: Partial<Record<Category, Part[]>> = {};
  for (const [cat, ids] of Object.entries(demo.parts) as [Category, string[]][]) {
    parts[cat] = ids.map((id) => byId.get(id)!).filter(Boolean);
  }
  return { parts, state: demo.interactiveState ?? null };
}

/** A demo part by its DEMO_IDS mnemonic. */
export function demoPart(key: keyof typeof DEMO_IDS): Part {
  const part = DEMO_PARTS.find((p) => p.id === DEMO_IDS[key]);
  if (!part) throw new Error(`no demo part ${key}`);
  return part;
}
