import { isIP } from 'net';
import { ValidateBy, ValidationOptions } from 'class-validator';

/** What express's `trust proxy` setting receives: nothing trusted, a hop count, or trusted addresses/subnets. */
export type TrustProxySetting = false | number | string[];

/** An IPv4/IPv6 address, optionally with a prefix length (`10.0.0.0/8`, `fd00::/8`). */
function isAddressOrCidr(value: string): boolean {
  const [address, bits, ...rest] = value.split('/');
  const family = isIP(address);
  if (!family || rest.length > 0) return false;
  if (bits === undefined) return true;
  if (!/^\d{1,3}$/.test(bits)) return false;
  return Number(bits) <= (family === 4 ? 32 : 128);
}

/**
 * Parses `TRUST_PROXY` (README "Security", "Client addresses and proxies"): `false` (or empty; the default: the
 * client address is the socket's peer, `X-Forwarded-For` is ignored), a hop count `1`..`10` (that many reverse
 * proxies in front of the API: the address that many hops back in `X-Forwarded-For`), or a comma-separated list of
 * proxy addresses and CIDR subnets whose `X-Forwarded-For` is believed (express also knows `loopback`,
 * `linklocal`, `uniquelocal`).
 * @returns the value for express's `trust proxy`, or null when the text is none of these
 */
export function parseTrustProxy(text: string): TrustProxySetting | null {
  const value = text.trim();
  if (value === '' || value.toLowerCase() === 'false') return false;
  if (/^\d+$/.test(value)) {
    const hops = Number(value);
    return hops >= 1 && hops <= 10 ? hops : hops === 0 ? false : null;
  }
  const entries = value.split(',').map((e) => e.trim());
  const named = ['loopback', 'linklocal', 'uniquelocal'];
  return entries.every((e) => named.includes(e) || isAddressOrCidr(e)) ? entries : null;
}

/** Validator of `TRUST_PROXY` (see {@link parseTrustProxy}). */
export function IsTrustProxy(options?: ValidationOptions): PropertyDecorator {
  return ValidateBy(
    {
      name: 'isTrustProxy',
      validator: {
        validate: (value: unknown) => typeof value === 'string' && parseTrustProxy(value) !== null,
        defaultMessage: () =>
          'TRUST_PROXY must be false, a hop count (1-10) or a comma-separated list of proxy IP addresses/CIDRs',
      },
    },
    options,
  );
}
