/** The CLI's one error mapping: the vocabulary's exit codes, failures exit 1, bugs say so. */
import { describe, expect, it } from 'vitest';
import { ExitError, reportError, UsageError } from '../../src/cli/errors.js';
import { ConfigError } from '../../src/config.js';
import { InternalError, NotFoundError, UnavailableError } from '../../src/errors.js';
import { WatchError } from '../../src/events/watch-job.js';
import { RetryRefusedError } from '../../src/jobs/errors.js';
import { StorageError } from '../../src/storage/storage-errors.js';
import { WebhookTargetError } from '../../src/webhooks/target-policy.js';
import { WebhookLimitError } from '../../src/webhooks/webhooks-repository.js';

function report(err: unknown, debug = false): { code: number; text: string } {
  let text = '';
  const code = reportError(err, (t) => (text += t), debug);
  return { code, text };
}

describe('reportError', () => {
  it('gives user errors exit 2 and their message alone', () => {
    expect(report(new UsageError('--width must be a number'))).toEqual({
      code: 2,
      text: 'render-farm: --width must be a number\n',
    });
    expect(report(new ConfigError('invalid configuration: port (env PORT): too big')).code).toBe(2);
    expect(report(new NotFoundError('build_not_found', 'no build X')).code).toBe(2);
  });

  it('gives unavailable components, internal failures and plain errors exit 1', () => {
    expect(report(new UnavailableError('tool_missing', 'Chromium not found: install it'))).toEqual({
      code: 1,
      text: 'render-farm: Chromium not found: install it\n',
    });
    expect(report(new InternalError('the render failed')).code).toBe(1);
    expect(report(new Error('ffmpeg failed: broken pipe'))).toEqual({
      code: 1,
      text: 'render-farm: ffmpeg failed: broken pipe\n',
    });
    expect(report(new ExitError(130, 'interrupted')).code).toBe(130);
  });

  // the exits `webhooks add`, `jobs watch` and `jobs retry` used to choose by hand
  it('gives the domain errors the exits their commands gave', () => {
    expect(report(new WebhookTargetError('the URL has no host'))).toEqual({
      code: 2,
      text: 'render-farm: the URL has no host\n',
    });
    expect(report(new WebhookLimitError()).code).toBe(2);
    expect(report(new RetryRefusedError('job j completed; pass --force to render it again'))).toEqual({
      code: 1,
      text: 'render-farm: job j completed; pass --force to render it again\n',
    });
    expect(report(new WatchError('the event stream kept dropping')).code).toBe(1);
    expect(report(new StorageError('S3 PUT x failed: HTTP 403 AccessDenied', 403)).code).toBe(1);
  });

  it('prints a bug as a bug, with its stack only at debug level', () => {
    const bug = new TypeError("Cannot read properties of undefined (reading 'x')");
    const quiet = report(bug);
    expect(quiet.code).toBe(1);
    expect(quiet.text).toMatch(/internal error \(a bug; please report it\): TypeError: Cannot read/);
    expect(quiet.text).toMatch(/--log-level debug/);
    expect(quiet.text).not.toMatch(/ at /);
    expect(report(bug, true).text).toMatch(/\n\s+at /);
  });
});
