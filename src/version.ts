/** The package version, reported by /health, the OpenAPI document and `--version`. */
import { createRequire } from 'node:module';

const require = createRequire(import.meta.url);
export const VERSION: string = (require('../package.json') as { version: string }).version;
