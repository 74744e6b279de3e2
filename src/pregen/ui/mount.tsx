/** Mounts the pregen ink UI on a TTY; `stop` renders the final frame and unmounts. */
import { render } from 'ink';
import type { ProgressStore } from '../progress.js';
import { PregenApp } from './pregen-app.js';

export interface MountedUi {
  stop(): Promise<void>;
}

export function mountPregenUi(store: ProgressStore, stdout: NodeJS.WriteStream = process.stdout): MountedUi {
  // Ctrl-C stays a SIGINT for the runner (interrupt and resume), not ink's exit
  const app = render(<PregenApp store={store} />, { stdout, exitOnCtrlC: false, patchConsole: false });
  return {
    stop: async () => {
      // let the last snapshot paint before unmounting
      await new Promise((r) => setTimeout(r, 50));
      app.unmount();
      await app.waitUntilExit().catch(() => {});
    },
  };
}
