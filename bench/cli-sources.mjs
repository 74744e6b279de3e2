#!/usr/bin/env node
// The CLI as bin/render-farm ran it before dist/: the TypeScript sources through tsx at every
// start. bench/cli.ts times it against the compiled bin/render-farm.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/cli/index.ts');
const { flushOutput } = await import('../src/cli/flush-output.ts');
const code = await main(process.argv);
await flushOutput();
process.exit(code);
