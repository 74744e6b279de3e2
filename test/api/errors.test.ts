/** The API's one catch maps the domain errors of the vocabulary: the answers the routes used to build by hand. */
import { describe, expect, it } from 'vitest';
import { toAnswer } from '../../src/http/errors.js';
import { RetryRefusedError } from '../../src/jobs/errors.js';
import { StorageError } from '../../src/storage/storage-errors.js';
import { WebhookTargetError } from '../../src/webhooks/target-policy.js';
import { WebhookLimitError } from '../../src/webhooks/webhooks-repository.js';

describe('toAnswer', () => {
  it('answers a refused webhook URL 400 invalid_webhook_url on the url field', () => {
    const a = toAnswer(new WebhookTargetError('the URL has no host'));
    expect(a).toMatchObject({
      status: 400,
      code: 'invalid_webhook_url',
      message: 'the URL has no host',
      details: [{ field: 'url', message: 'the URL has no host' }],
    });
  });

  it('answers a full customer 400 too_many_webhooks', () => {
    expect(toAnswer(new WebhookLimitError())).toMatchObject({
      status: 400,
      code: 'too_many_webhooks',
      message: expect.stringMatching(/at most \d+ webhooks: remove one first/),
    });
  });

  it('answers a refused retry 409 retry_refused', () => {
    expect(toAnswer(new RetryRefusedError('job j completed; pass --force to render it again'))).toMatchObject({
      status: 409,
      code: 'retry_refused',
    });
  });

  // it carried S3's own status, which the catch read as the caller's fault (403 bad_request with S3's message)
  it("treats a storage failure as the farm's, whatever S3 answered (500, logged, message not shown)", () => {
    expect(toAnswer(new StorageError('S3 PUT x failed: HTTP 403 AccessDenied', 403, 'AccessDenied'))).toBeNull();
    expect(toAnswer(new StorageError('S3 GET x failed: HTTP 400 InvalidRequest', 400, 'InvalidRequest'))).toBeNull();
  });
});
