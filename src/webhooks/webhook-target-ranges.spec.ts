import { isPrivateAddress, isPrivateUrl } from './webhook-target';

/**
 * README "Security", "Webhooks": every special-purpose range the blocklist must hold, one sample or more per
 * range.
 */
describe('webhook target ranges', () => {
  const refused: [range: string, addresses: string[]][] = [
    [
      '::/96 (IPv4-compatible, with :: and ::1)',
      ['::', '::1', '::a00:1', '::7f00:1', '::8.8.8.8', '::ffff:ffff'],
    ],
    ['::ffff:0:0:0/96 (IPv4-translated)', ['::ffff:0:a00:1', '::ffff:0:808:808', '::ffff:0:0:1']],
    ['fec0::/10 (site-local)', ['fec0::1', 'feff:ffff::1', 'fed0:1:2::3']],
    ['2002::/16 (6to4)', ['2002:a00:1::1', '2002:7f00:1::', '2002:808:808::1', '2002:ffff::']],
    ['64:ff9b::/96 (NAT64)', ['64:ff9b::a00:1', '64:ff9b::808:808', '64:ff9b::7f00:1']],
    ['100::/64 (discard)', ['100::', '100::1', '100::ffff:ffff:ffff:ffff']],
    ['::ffff:0:0/96 (IPv4-mapped) of a private IPv4', ['::ffff:127.0.0.1', '::ffff:7f00:1', '::ffff:a00:1']],
    ['fc00::/7, fe80::/10, ff00::/8', ['fd00::1', 'fc00::1', 'fe80::1', 'ff02::1']],
    [
      'IPv4 private, loopback, link-local',
      ['127.0.0.1', '10.1.2.3', '172.16.0.1', '192.168.1.1', '169.254.169.254', '0.0.0.0', '100.64.0.1'],
    ],
  ];

  it.each(refused)('refuses %s', (_range, addresses) => {
    for (const a of addresses) expect([a, isPrivateAddress(a)]).toEqual([a, true]);
  });

  it('refuses them as URL literals too', () => {
    for (const url of [
      'http://[::a00:1]/',
      'http://[::ffff:0:a00:1]/',
      'http://[fec0::1]/',
      'http://[2002:a00:1::1]/',
      'http://[64:ff9b::a00:1]/',
      'http://[100::1]/',
    ])
      expect([url, isPrivateUrl(new URL(url))]).toEqual([url, true]);
  });

  it('keeps public addresses next to those ranges allowed', () => {
    for (const a of [
      '8.8.8.8',
      '::ffff:8.8.8.8',
      '2606:4700::1111',
      '2001:4860:4860::8888',
      '2003::1',
      '100:0:0:1::1',
      'fe00::1',
      '64:ff9c::1',
    ])
      expect([a, isPrivateAddress(a)]).toEqual([a, false]);
  });
});
