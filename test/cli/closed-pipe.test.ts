/** `render-farm ... | head`: the reader closing the pipe early ends the CLI quietly, exit 0. */
import { spawn } from 'node:child_process';
import path from 'node:path';
import { describe, expect, it } from 'vitest';

describe('a closed stdout pipe', () => {
  it('exits 0 without an EPIPE stack', async () => {
    const child = spawn(process.execPath, [path.resolve('bin/render-farm'), '--help'], {
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stderr = '';
    child.stderr.on('data', (d) => (stderr += d));
    // close our end before the help is written, as `head` does once it has its lines
    child.stdout.destroy();
    const code = await new Promise<number | null>((resolve) => child.on('close', resolve));
    expect(stderr).not.toContain('EPIPE');
    expect(code).toBe(0);
  });
});
