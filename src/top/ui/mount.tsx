/** Runs the top screen on the terminal until q (or Ctrl-C). */
import { render } from 'ink';
import { TopApp, type TopSource } from './top-app.js';

export async function mountTop(source: TopSource, intervalMs: number): Promise<void> {
  let quit = () => {};
  const app = render(<TopApp source={source} intervalMs={intervalMs} onQuit={() => quit()} />, { patchConsole: false });
  quit = () => app.unmount();
  await app.waitUntilExit().catch(() => {});
}
