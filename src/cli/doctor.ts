/** `render-farm doctor`: checks every component a render needs and says how to fix what fails. */
import type { Command } from 'commander';
import { ExitError } from './errors.js';
import { configFor, printJson } from './common.js';
import { addSettingOptions } from './setting-flags.js';

export default function register(program: Command): void {
  const doctor = program
    .command('doctor')
    .description(
      'Check the Node line (a warning past its end of life), Chromium (and the WebGL backend it really gets, with a measured probe render), WebCodecs H.264, ffmpeg/ffprobe, PostgreSQL and migrations, the data dir, the artifact store and ports. Exit 0 when all pass, 1 otherwise.',
    );
  addSettingOptions(doctor, ['port', 'host'], { port: 'API port to check', host: 'API address to check' })
    .option('--json', 'machine-readable report')
    .addHelpText(
      'after',
      `
Each row is ok, WARN (works, but slower or degraded), FAIL (renders will not work) or skip, with the fix
under every WARN and FAIL. The probe renders ${'16'} frames of a demo build at 512x512 (cinematic) on the stage.

Examples:
  $ render-farm doctor
  $ DATABASE_URL=postgres://u:p@db/render render-farm doctor --json | jq '.checks[] | select(.status != "ok")'`,
    )
    .action(async (opts: { json?: boolean }, cmd: Command) => {
      const cfg = configFor(cmd);
      const { runDoctor } = await import('../doctor/run-doctor.js');
      const { formatReport } = await import('../doctor/format-report.js');
      const tty = !opts.json && process.stderr.isTTY;
      const report = await runDoctor(cfg, (c) => {
        if (tty) process.stderr.write(`\rchecked ${c.id}…`.padEnd(30));
      });
      if (tty) process.stderr.write('\r'.padEnd(31) + '\r');
      if (opts.json) printJson(report);
      // clipped to the terminal's width; full lines when piped
      else process.stdout.write(formatReport(report, process.stdout.isTTY ? process.stdout.columns || 120 : Infinity));
      if (!report.ok)
        throw new ExitError(
          1,
          `${report.checks
            .filter((c) => c.status === 'fail')
            .map((c) => c.id)
            .join(', ')} failed`,
        );
    });
}
