/**
 * Where webhooks may be sent (SSRF defence). A customer-supplied URL must not make the farm
 * call into its own network: a target whose address is loopback, private, link-local, CGNAT,
 * multicast or otherwise reserved is refused unless an operator allowed that range
 * (RENDER_FARM_WEBHOOK_ALLOW_PRIVATE). Addresses are checked after DNS resolution, at
 * registration and again at connection time (a lookup hook), so a name that later resolves
 * to 127.0.0.1 (DNS rebinding) is still refused.
 */
import dns from 'node:dns';
import net from 'node:net';
import type { Config } from '../config.js';
import { UserError } from '../errors.js';

/** The target cannot be used; retrying will not help. At registration: 400 `invalid_webhook_url` on the url field, exit 2. */
export class WebhookTargetError extends UserError {
  constructor(message: string) {
    super('invalid_webhook_url', message, { details: [{ field: 'url', message }] });
    this.name = 'WebhookTargetError';
  }
}

export interface TargetPolicy {
  /** CIDRs of private ranges an operator allowed */
  allowPrivate: readonly string[];
  allowHttp: boolean;
}

export function targetPolicy(cfg: Pick<Config, 'webhookAllowPrivate' | 'webhookAllowHttp'>): TargetPolicy {
  return { allowPrivate: cfg.webhookAllowPrivate, allowHttp: cfg.webhookAllowHttp };
}

const RESERVED_V4: [string, number][] = [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.0.2.0', 24],
  ['192.88.99.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['198.51.100.0', 24],
  ['203.0.113.0', 24],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
];
// IPv4-mapped (::ffff:a.b.c.d) addresses are matched against the IPv4 rules by BlockList itself
const RESERVED_V6: [string, number][] = [
  ['::', 128],
  ['::1', 128],
  ['64:ff9b:1::', 48],
  ['100::', 64],
  ['2001::', 23],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
];

const reserved = new net.BlockList();
for (const [a, n] of RESERVED_V4) reserved.addSubnet(a, n, 'ipv4');
for (const [a, n] of RESERVED_V6) reserved.addSubnet(a, n, 'ipv6');

const allowLists = new WeakMap<TargetPolicy, net.BlockList>();
function allowList(policy: TargetPolicy): net.BlockList {
  let list = allowLists.get(policy);
  if (!list) {
    list = new net.BlockList();
    for (const cidr of policy.allowPrivate) {
      const [addr, bits] = cidr.split('/') as [string, string | undefined];
      const family = net.isIP(addr) === 6 ? 'ipv6' : 'ipv4';
      list.addSubnet(addr, bits === undefined ? (family === 'ipv6' ? 128 : 32) : Number(bits), family);
    }
    allowLists.set(policy, list);
  }
  return list;
}

/** The IPv4 address a NAT64 address (64:ff9b::/96) stands for, else undefined. */
function nat64Target(ip: string): string | undefined {
  const m = /^64:ff9b::(?:(\d+\.\d+\.\d+\.\d+)|([0-9a-f]{1,4}):([0-9a-f]{1,4}))$/i.exec(ip);
  if (!m) return undefined;
  if (m[1]) return m[1];
  const hi = parseInt(m[2]!, 16);
  const lo = parseInt(m[3]!, 16);
  return [hi >> 8, hi & 255, lo >> 8, lo & 255].join('.');
}

/** True when the address is a public unicast one, or inside a range the operator allowed. */
export function addressAllowed(ip: string, policy: TargetPolicy): boolean {
  const family = net.isIP(ip);
  if (!family) return false;
  const type = family === 6 ? 'ipv6' : 'ipv4';
  if (allowList(policy).check(ip, type)) return true;
  const v4 = family === 6 ? nat64Target(ip) : undefined;
  if (v4) return addressAllowed(v4, policy);
  return !reserved.check(ip, type);
}

/** Syntax rules: https (http only when allowed), no credentials, a host, at most 2048 characters. */
export function parseWebhookUrl(raw: string, policy: TargetPolicy): URL {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new WebhookTargetError(`"${raw.slice(0, 100)}" is not an absolute URL`);
  }
  if (raw.length > 2048) throw new WebhookTargetError('the URL is longer than 2048 characters');
  if (url.protocol !== 'https:' && !(url.protocol === 'http:' && policy.allowHttp)) {
    throw new WebhookTargetError(
      `webhook URLs must be https${policy.allowHttp ? ' or http' : ''}, not ${url.protocol.replace(':', '')}`,
    );
  }
  if (url.username || url.password)
    throw new WebhookTargetError('webhook URLs must not carry credentials; verify the signature instead');
  if (!url.hostname) throw new WebhookTargetError('the URL has no host');
  url.hash = '';
  return url;
}

const bare = (hostname: string) => hostname.replace(/^\[|\]$/g, '');

function refuse(host: string, ip: string): WebhookTargetError {
  return new WebhookTargetError(
    `${host} resolves to ${ip}, a private, loopback or reserved address: webhooks go to public addresses only (an operator can allow a range with RENDER_FARM_WEBHOOK_ALLOW_PRIVATE)`,
  );
}

/** Parses the URL and checks every address its host resolves to now. */
export async function checkWebhookTarget(
  raw: string,
  policy: TargetPolicy,
): Promise<{ url: URL; addresses: string[] }> {
  const url = parseWebhookUrl(raw, policy);
  const host = bare(url.hostname);
  let addresses: string[];
  if (net.isIP(host)) {
    addresses = [host];
  } else {
    try {
      addresses = (await dns.promises.lookup(host, { all: true, verbatim: true })).map((a) => a.address);
    } catch (err) {
      throw new WebhookTargetError(
        `cannot resolve ${host} (${(err as NodeJS.ErrnoException).code ?? (err as Error).message})`,
      );
    }
  }
  const bad = addresses.find((a) => !addressAllowed(a, policy));
  if (bad) throw refuse(host, bad);
  return { url, addresses };
}

/**
 * A `lookup` for http(s).request that refuses disallowed addresses at connection time, so the
 * socket can only reach an address that passed the check.
 */
export function guardedLookup(policy: TargetPolicy): net.LookupFunction {
  return ((hostname: string, options: dns.LookupOptions, callback: (...args: unknown[]) => void) => {
    dns.lookup(hostname, { ...options, all: true, verbatim: true }, (err, addresses) => {
      if (err) return callback(err);
      const list = addresses as dns.LookupAddress[];
      const bad = list.find((a) => !addressAllowed(a.address, policy));
      if (bad) return callback(refuse(hostname, bad.address));
      if (!list.length) return callback(new WebhookTargetError(`${hostname} has no address`));
      if (options.all) callback(null, list);
      else callback(null, list[0]!.address, list[0]!.family);
    });
  }) as unknown as net.LookupFunction;
}
