import ipaddr from 'ipaddr.js';
import { describe, expect, it } from 'vitest';
import { SPECIAL_IPV4_RANGES, SPECIAL_IPV6_RANGES, specialRangeOf } from './special-ranges.js';
import { addressProblem, webhookUrlProblem } from './targets.js';

/**
 * Audit finding 3 (issue #29): the guard took ipaddr.js's `range()` as its table, which has no
 * ::/96 (IPv4-compatible), so `http://[::127.0.0.1]`, `[::a9fe:a9fe]` (169.254.169.254) and
 * `[::a00:1]` passed. Every row of the one table is tested here: its first and last address are
 * refused, by that row or a more specific one inside it.
 */
const MAPPED = '::ffff:0:0/96';

function bits(cidr: string): number {
  return Number(cidr.split('/')[1]);
}

function ends(cidr: string): [string, string] {
  const v6 = cidr.includes(':');
  const first = v6 ? ipaddr.IPv6.networkAddressFromCIDR(cidr) : ipaddr.IPv4.networkAddressFromCIDR(cidr);
  const last = v6 ? ipaddr.IPv6.broadcastAddressFromCIDR(cidr) : ipaddr.IPv4.broadcastAddressFromCIDR(cidr);
  return [first.toString(), last.toString()];
}

describe('the special-purpose table', () => {
  const rows = [...SPECIAL_IPV4_RANGES, ...SPECIAL_IPV6_RANGES].filter((r) => r.cidr !== MAPPED);

  it.each(rows.map((r) => [r.cidr, r.name, r] as const))(
    '%s (%s): first and last address refused',
    (cidr, _name, row) => {
      for (const address of ends(cidr)) {
        const problem = addressProblem(address);
        expect(problem, `${address} in ${cidr}`).toBeDefined();
        const match = specialRangeOf(address);
        expect(match && 'row' in match, address).toBe(true);
        if (match && 'row' in match) {
          // This row, or a more specific row inside it.
          const inner = ipaddr.parseCIDR(match.row.cidr);
          const outer = ipaddr.parseCIDR(row.cidr);
          expect(inner[0].kind()).toBe(outer[0].kind());
          expect(bits(match.row.cidr) >= bits(cidr), `${address}: ${match.row.cidr} inside ${cidr}`).toBe(
            true,
          );
          expect((inner[0] as ipaddr.IPv6).match(outer as [ipaddr.IPv6, number])).toBe(true);
        }
        expect(addressProblem(address, { allowPrivateTargets: true })).toBeUndefined();
      }
    },
  );

  it.each([
    ['::ffff:127.0.0.1', 'loopback'],
    ['::ffff:10.0.0.1', 'private-use'],
    ['::ffff:169.254.169.254', 'link-local'],
    ['::ffff:0.0.0.0', 'this host'],
  ])('::ffff:0:0/96 (IPv4-mapped) is judged as its IPv4 address: %s → %s', (address, name) => {
    expect(addressProblem(address)).toContain(name);
  });

  it('a mapped public IPv4 address is the public address', () => {
    expect(addressProblem('::ffff:8.8.4.4')).toBeUndefined();
  });

  it.each([
    ['::127.0.0.1', 'IPv4-compatible'],
    ['::7f00:1', 'IPv4-compatible'],
    ['::a9fe:a9fe', 'IPv4-compatible'],
    ['::a00:1', 'IPv4-compatible'],
    // glibc prints an IPv4-compatible address as ::a.b.c.d; ipaddr.js alone would read it as mapped.
    ['::8.8.8.8', 'IPv4-compatible'],
    ['64:ff9b::10.0.0.1', 'NAT64'],
    ['64:ff9b::8.8.8.8', 'NAT64'],
    ['2002:a00:1::1', '6to4'],
    ['2002:808:808::1', '6to4'],
    ['2001:0:4136:e378:8000:63bf:3fff:fdd2', 'Teredo'],
    ['::ffff:0:7f00:1', 'SIIT'],
    ['fe80::1%eth0', 'scoped'],
    ['4000::1', 'outside global unicast'],
    ['1::1', 'outside global unicast'],
  ])('the audit cases and the IPv4-embedding forms: %s → %s', (address, text) => {
    expect(addressProblem(address)).toContain(text);
    expect(addressProblem(`[${address}]`)).toContain(text);
  });

  it.each([
    '8.8.8.8',
    '1.1.1.1',
    '9.255.255.255',
    '11.0.0.0',
    '100.63.255.255',
    '100.128.0.0',
    '172.15.255.255',
    '172.32.0.0',
    '192.0.1.0',
    '192.167.255.255',
    '192.169.0.0',
    '198.17.255.255',
    '198.20.0.0',
    '223.255.255.255',
    '2606:4700:4700::1111',
    '2001:4860:4860::8888',
    '2001:200::1',
    '2a00:1450:4001::1',
    '2620:4f:7fff::1',
  ])('the public neighbour %s is allowed', (address) => {
    expect(addressProblem(address)).toBeUndefined();
  });

  it('refuses what is not an IP literal', () => {
    expect(addressProblem('example.com')).toContain('not an IP address');
    expect(addressProblem('127.1')).toContain('not an IP address');
  });

  it.each([
    'http://[::127.0.0.1]:8080/x',
    'http://[::a9fe:a9fe]/latest/meta-data',
    'http://[::a00:1]/x',
    'http://[64:ff9b::a9fe:a9fe]/x',
    'http://[2002:a9fe:a9fe::1]/x',
    'http://[2001::1]/x',
    'http://[::ffff:a9fe:a9fe]/x',
    'http://[fec0::1]/x',
  ])('webhookUrlProblem refuses %s', (url) => {
    expect(webhookUrlProblem(url)).toBeDefined();
  });
});
