/** How `jobs watch` shows events: a progress bar on a TTY, one line per change otherwise, or JSON lines. */
import type { JobEvent } from '../events/follow-job.js';

interface Small {
  status?: string;
  progress?: number;
  error?: string;
  url?: string | null;
}

export interface WatchReporter {
  event(e: JobEvent): void;
  stop(): void;
}

export async function watchReporter(mode: 'json' | 'tty' | 'plain', jobId: string): Promise<WatchReporter> {
  if (mode === 'json') {
    return {
      event: (e) => process.stdout.write(JSON.stringify({ id: e.id, event: e.event, data: e.data }) + '\n'),
      stop: () => {},
    };
  }
  const finalLine = (e: JobEvent) => {
    const d = e.data as Small;
    return e.event === 'completed'
      ? `${jobId}: completed ${d.url ?? ''}`.trimEnd()
      : `${jobId}: error: ${d.error ?? 'the render failed'}`;
  };
  if (mode === 'plain') {
    let lastTenth = -1;
    return {
      event(e) {
        const d = e.data as Small;
        if (e.event === 'completed' || e.event === 'error') return void process.stdout.write(finalLine(e) + '\n');
        const tenth = Math.floor((d.progress ?? 0) * 10);
        if (e.event === 'status' || tenth > lastTenth) {
          lastTenth = tenth;
          process.stdout.write(`${jobId}: ${d.status} ${Math.round((d.progress ?? 0) * 100)}%\n`);
        }
      },
      stop: () => {},
    };
  }
  const { SingleBar, Presets } = await import('cli-progress');
  const bar = new SingleBar(
    { format: `${jobId.slice(0, 8)} [{bar}] {percentage}% | {status}`, hideCursor: true, stream: process.stderr },
    Presets.shades_classic,
  );
  bar.start(100, 0, { status: 'connecting' });
  let stopped = false;
  return {
    event(e) {
      const d = e.data as Small;
      if (e.event === 'completed' || e.event === 'error') {
        bar.update(e.event === 'completed' ? 100 : Math.round((d.progress ?? 0) * 100), {
          status: d.status ?? e.event,
        });
        bar.stop();
        stopped = true;
        process.stdout.write(finalLine(e) + '\n');
        return;
      }
      bar.update(Math.round((d.progress ?? 0) * 100), { status: d.status ?? '' });
    },
    stop() {
      if (!stopped) bar.stop();
      stopped = true;
    },
  };
}
