/**
 * The import graph's rules (`npm run lint:deps`, run by CI): src/ is a house of floors, and a
 * file may import from its own floor or the floors below it, never above; no import circles
 * anywhere; the browser stage (farm/) sees only the ground-floor model (its bundler entry,
 * farm/build.ts, also the package root); src/, farm/, bench/ and tools/ never reach into test/,
 * and nothing reaches into tools/ (dev tools, like benches, sit on top of everything). Type-only imports count: a type pulled from an upper floor couples
 * the floors all the same. docs/ARCHITECTURE.md describes each floor.
 */

/** Lowest first. Folders on one floor are peers; a later floor may import any earlier one. */
const FLOORS = [
  ['model'], // the house vocabulary: parts, builds, render request, sprite layout, stage contract
  [
    'errors.ts',
    'config.ts',
    'log.ts',
    'package-root.ts',
    'version.ts',
    'metrics.ts',
    'log-pretty.ts',
    'ensure-dir.ts',
    'temp-dirs.ts',
  ],
  ['db'],
  ['storage', 'catalog', 'auth', 'part-models'], // part-models: validating and preparing artists' glTF models; the library of each part's models
  ['encode'],
  ['render'],
  ['thumbnails'],
  ['jobs'],
  ['pregen', 'events', 'webhooks', 'doctor', 'top'], // the farm's services over jobs: pregen cache, job events, webhooks, doctor checks, the top view
  ['http'], // what the API and the console both serve HTTP with: request context, errors and their body, JSON bodies, zod parsing, rate limits, SSE
  ['console'], // the web console (/console); console/ui/ is its browser code (preact), bundled at run time. Below api: the API mounts it, it never imports api/
  ['api'],
  ['cli'],
];

const escape = (s) => s.replace(/[.]/g, '\\.');
const pathsOf = (names) => `^src/(${names.map((n) => (n.endsWith('.ts') ? escape(n) + '$' : `${n}/`)).join('|')})`;

const upward = FLOORS.slice(0, -1).map((names, i) => ({
  name: `no-upward-from-${names.map((n) => n.replace('.ts', '')).join('-')}`,
  comment: `${names.join(', ')} may not import from a higher floor (${FLOORS.slice(i + 1)
    .flat()
    .join(', ')})`,
  severity: 'error',
  from: { path: pathsOf(names) },
  to: { path: pathsOf(FLOORS.slice(i + 1).flat()) },
}));

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    ...upward,
    {
      name: 'no-circular',
      comment: 'import circles make load order and layering accidental',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'src-floors-only',
      comment: 'every src/ file lives on a floor: add new top-level folders to FLOORS in .dependency-cruiser.cjs',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^src/', pathNot: pathsOf(FLOORS.flat()) },
    },
    {
      name: 'stage-sees-only-the-model',
      comment:
        'the three.js stage runs in Chromium: it may use src/model (types, defaults) and nothing else of src/; dev tools that drive it live in tools/',
      severity: 'error',
      from: { path: '^farm/', pathNot: '^farm/build\\.ts$' },
      to: { path: '^src/', pathNot: '^src/model/' },
    },
    {
      name: 'stage-bundler-sees-only-the-package-root',
      comment:
        'farm/build.ts (the bundler entry, loaded by src/render/stage-bundle.ts) needs only the package root to find farm/src',
      severity: 'error',
      from: { path: '^farm/build\\.ts$' },
      to: { path: '^src/', pathNot: '^src/(model/|package-root\\.ts$)' },
    },
    {
      name: 'console-ui-sees-only-its-api-types',
      comment:
        'src/console/ui/ runs in the browser: besides itself it may import only the console API types (src/console/console-api.ts), never server code',
      severity: 'error',
      from: { path: '^src/console/ui/' },
      to: { path: '^src/', pathNot: '^src/console/(ui/|console-api\\.ts$)' },
    },
    {
      name: 'src-not-into-farm',
      comment: 'src/ talks to the stage through src/model/stage-contract.ts; the bundle is loaded by a computed import',
      severity: 'error',
      from: { path: '^src/' },
      to: { path: '^farm/' },
    },
    {
      name: 'not-into-test',
      comment: 'test/ helpers and fixtures are for tests: src/, farm/, bench/ and tools/ must not depend on them',
      severity: 'error',
      from: { path: '^(src|farm|bench|tools)/' },
      to: { path: '^test/' },
    },
    {
      name: 'not-into-tools',
      comment:
        'tools/ holds dev tools (gallery, snapshot, cost) run by hand: nothing in the product, its tests or benches depends on them',
      severity: 'error',
      from: { path: '^(src|farm|bench|test)/' },
      to: { path: '^tools/' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '^node_modules/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    enhancedResolveOptions: { extensions: ['.ts', '.tsx', '.js', '.mjs', '.cjs', '.json'] },
  },
};
