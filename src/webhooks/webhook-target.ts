import { lookup as dnsLookup, LookupAddress } from 'dns';
import { BlockList, isIP } from 'net';

/** Private, loopback, link-local, shared, reserved, documentation and multicast ranges (IPv4 and IPv6). */
const PRIVATE = new BlockList();
for (const [net, prefix] of [
  ['0.0.0.0', 8],
  ['10.0.0.0', 8],
  ['100.64.0.0', 10],
  ['127.0.0.0', 8],
  ['169.254.0.0', 16],
  ['172.16.0.0', 12],
  ['192.0.0.0', 24],
  ['192.168.0.0', 16],
  ['198.18.0.0', 15],
  ['224.0.0.0', 4],
  ['240.0.0.0', 4],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv4');
}
// IPv6 special-purpose ranges (RFC 6890 and successors; README "Security", "Webhooks"). Ranges that embed an IPv4
// address (IPv4-compatible `::/96`, IPv4-translated `::ffff:0:0:0/96`, 6to4 `2002::/16`, NAT64 `64:ff9b::/96`) are
// refused whole: the embedded address may be private and the route to it is not ours to judge. IPv4-mapped
// `::ffff:0:0/96` is checked on its embedded IPv4 address instead (node's BlockList does that).
for (const [net, prefix] of [
  ['::', 96],
  ['::ffff:0:0:0', 96],
  ['64:ff9b::', 96],
  ['100::', 64],
  ['2001:db8::', 32],
  ['2002::', 16],
  ['fc00::', 7],
  ['fe80::', 10],
  ['fec0::', 10],
  ['ff00::', 8],
] as const) {
  PRIVATE.addSubnet(net, prefix, 'ipv6');
}

/**
 * Whether an IP address (v4, v6, v4-mapped v6 in dotted or hex form) is private, loopback, link-local or otherwise
 * not public (the ranges above). Anything that is not an IP address counts as private.
 */
export function isPrivateAddress(address: string): boolean {
  const mapped = /^::ffff:(\d+\.\d+\.\d+\.\d+)$/i.exec(address);
  if (mapped) return PRIVATE.check(mapped[1], 'ipv4');
  const family = isIP(address);
  if (family === 0) return true;
  return PRIVATE.check(address, family === 4 ? 'ipv4' : 'ipv6');
}

/** The message of a refused target (configuration and delivery). */
export const PRIVATE_TARGET = 'Webhook targets on private, link-local or loopback addresses are not allowed.';

/**
 * Whether a target URL names a private host literally (an IP literal or `localhost`); DNS names are checked on
 * their resolved address at delivery time ({@link guardedLookup}).
 */
export function isPrivateUrl(url: URL): boolean {
  const host = url.hostname.replace(/^\[|\]$/g, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  return isIP(host) !== 0 && isPrivateAddress(host);
}

/** Raised when a target resolves to an address that is not allowed. */
export class PrivateTargetError extends Error {
  constructor() {
    super(PRIVATE_TARGET);
  }
}

type LookupCallback = (
  err: NodeJS.ErrnoException | null,
  address: string | LookupAddress[],
  family?: number,
) => void;

/**
 * A `lookup` for `http.request` that refuses private addresses after resolution, so the address connected to is
 * the one checked (a DNS answer cannot sneak a private address past the configuration check).
 */
export function guardedLookup(hostname: string, options: object, callback: LookupCallback): void {
  dnsLookup(hostname, { ...options, all: true }, (err, addresses) => {
    if (err) return callback(err, []);
    const list = addresses;
    const bad = list.find((a) => isPrivateAddress(a.address));
    if (bad) return callback(new PrivateTargetError(), []);
    if ((options as { all?: boolean }).all) return callback(null, list);
    callback(null, list[0].address, list[0].family);
  });
}
