import { guardedLookup, isPrivateAddress, isPrivateUrl, PRIVATE_TARGET } from './webhook-target';

describe('webhook target guard (SSRF)', () => {
  it('refuses private, loopback, link-local and mapped addresses; allows public ones', () => {
    for (const a of ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '::1', 'fe80::1', 'fd00::1', '::ffff:127.0.0.1', '0.0.0.0'])
      expect([a, isPrivateAddress(a)]).toEqual([a, true]);
    for (const a of ['93.184.216.34', '2606:2800:220:1:248:1893:25c8:1946', '8.8.8.8'])
      expect([a, isPrivateAddress(a)]).toEqual([a, false]);
  });

  it('refuses literal private hosts in URLs', () => {
    expect(isPrivateUrl(new URL('http://127.0.0.1:8080/'))).toBe(true);
    expect(isPrivateUrl(new URL('http://[::1]/'))).toBe(true);
    expect(isPrivateUrl(new URL('http://localhost/'))).toBe(true);
    expect(isPrivateUrl(new URL('https://hooks.example.org/'))).toBe(false);
  });

  it('checks the resolved address: a name resolving to loopback is refused', async () => {
    const err = await new Promise<Error | null>((resolve) => guardedLookup('localhost', {}, (e) => resolve(e)));
    expect(err?.message).toBe(PRIVATE_TARGET);
  });
});
