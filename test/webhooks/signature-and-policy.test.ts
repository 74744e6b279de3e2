import { describe, expect, it } from 'vitest';
import { signWebhook, verifyWebhook } from '../../src/webhooks/signature.js';
import { addressAllowed, checkWebhookTarget, parseWebhookUrl, targetPolicy } from '../../src/webhooks/target-policy.js';
import { loadConfig } from '../../src/config.js';

const strict = targetPolicy(loadConfig({}, {}));
const loopbackOk = targetPolicy(loadConfig({ webhookAllowPrivate: '127.0.0.0/8,::1', webhookAllowHttp: true }, {}));

describe('webhook signatures', () => {
  const body = '{"event":"job.completed"}';
  it('is HMAC-SHA256 over "<t>.<body>", hex, in t=…,v1=…', () => {
    // the vector is from `openssl dgst -sha256 -hmac whsec_test` over the same bytes
    expect(signWebhook('whsec_test', body, 1_700_000_000)).toBe(
      't=1700000000,v1=51be9920773f454007b9aaf2ef84578604f287a1ad8b1cf6918458c66aac6bd8',
    );
  });
  it('verifies the right secret and body within the tolerance only', () => {
    const h = signWebhook('whsec_test', body, 1_700_000_000);
    expect(verifyWebhook('whsec_test', body, h, 300, 1_700_000_100)).toBe(true);
    expect(verifyWebhook('whsec_other', body, h, 300, 1_700_000_100)).toBe(false);
    expect(verifyWebhook('whsec_test', body + ' ', h, 300, 1_700_000_100)).toBe(false);
    expect(verifyWebhook('whsec_test', body, h, 300, 1_700_000_301)).toBe(false);
    expect(verifyWebhook('whsec_test', body, 't=1700000000,v1=zz', 300, 1_700_000_000)).toBe(false);
    expect(verifyWebhook('whsec_test', body, undefined)).toBe(false);
  });
});

describe('webhook target policy (SSRF)', () => {
  it('refuses loopback, private, link-local, CGNAT, multicast and reserved addresses', () => {
    for (const ip of [
      '127.0.0.1',
      '10.1.2.3',
      '172.16.0.1',
      '172.31.255.255',
      '192.168.1.1',
      '169.254.169.254',
      '100.64.0.1',
      '0.0.0.0',
      '224.0.0.1',
      '255.255.255.255',
      '::1',
      '::',
      'fd00::1',
      'fe80::1',
      '::ffff:127.0.0.1',
      '::ffff:10.0.0.1',
      '64:ff9b::7f00:1',
      '64:ff9b::10.0.0.1',
      'ff02::1',
    ]) {
      expect(addressAllowed(ip, strict), ip).toBe(false);
    }
    for (const ip of [
      '8.8.8.8',
      '1.1.1.1',
      '172.32.0.1',
      '2606:4700:4700::1111',
      '64:ff9b::808:808',
      '::ffff:8.8.8.8',
    ]) {
      expect(addressAllowed(ip, strict), ip).toBe(true);
    }
    expect(addressAllowed('not an ip', strict)).toBe(false);
  });
  it('admits the ranges an operator allowed, and nothing else private', () => {
    expect(addressAllowed('127.0.0.1', loopbackOk)).toBe(true);
    expect(addressAllowed('::1', loopbackOk)).toBe(true);
    expect(addressAllowed('10.0.0.1', loopbackOk)).toBe(false);
  });
  it('wants https (http only when allowed) and no credentials in the URL', () => {
    expect(() => parseWebhookUrl('http://example.com/h', strict)).toThrow(/must be https/);
    expect(parseWebhookUrl('http://example.com/h', loopbackOk).href).toBe('http://example.com/h');
    expect(() => parseWebhookUrl('https://u:p@example.com/', strict)).toThrow(/credentials/);
    expect(() => parseWebhookUrl('ftp://example.com/', strict)).toThrow(/https/);
    expect(() => parseWebhookUrl('example.com/hook', strict)).toThrow(/absolute URL/);
  });
  it('checks what a host name resolves to: localhost is loopback', async () => {
    await expect(checkWebhookTarget('https://localhost/hook', strict)).rejects.toThrow(
      /resolves to (127\.0\.0\.1|::1)/,
    );
    await expect(checkWebhookTarget('https://[::1]:8443/hook', strict)).rejects.toThrow(/::1/);
    await expect(checkWebhookTarget('https://169.254.169.254/latest/meta-data', strict)).rejects.toThrow(
      /private, loopback or reserved/,
    );
    await expect(checkWebhookTarget('http://127.0.0.1:9/x', loopbackOk)).resolves.toMatchObject({
      addresses: ['127.0.0.1'],
    });
  });
});
