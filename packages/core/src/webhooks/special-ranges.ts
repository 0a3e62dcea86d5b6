import ipaddr from 'ipaddr.js';

/**
 * Every address range a webhook may not target, IPv4 and IPv6, in ONE table: the IANA IPv4 and
 * IPv6 Special-Purpose Address Registries (as of 2025), the multicast ranges, the deprecated
 * IPv4-compatible and site-local IPv6 ranges, and — for IPv6 — everything outside global unicast
 * (2000::/3). ipaddr.js parses and matches; the table is ours because `range()` misses ranges
 * (::/96 IPv4-compatible, 100:0:0:1::/64, 2001:1::/126's anycast addresses, the 192.0.0.0/24
 * sub-entries) and its parser reads `::a.b.c.d` as IPv4-MAPPED (so `::8.8.8.8`, as glibc prints an
 * IPv4-compatible address, would have passed as 8.8.8.8). See docs/decisions/0031-audit-hardening.md.
 */
export interface SpecialRange {
  /** The range in CIDR notation. */
  cidr: string;
  /** What the registry calls it. */
  name: string;
  /** Where it is defined. */
  rfc: string;
}

/**
 * The IPv4 rows. Subsets (192.0.0.0/29 inside 192.0.0.0/24) are listed too, so the table reads like
 * the registry; a match on any row refuses the address.
 */
export const SPECIAL_IPV4_RANGES: readonly SpecialRange[] = Object.freeze([
  { cidr: '0.0.0.0/8', name: '"this network"', rfc: 'RFC 791' },
  { cidr: '0.0.0.0/32', name: '"this host on this network"', rfc: 'RFC 1122' },
  { cidr: '10.0.0.0/8', name: 'private-use', rfc: 'RFC 1918' },
  { cidr: '100.64.0.0/10', name: 'shared address space (carrier-grade NAT)', rfc: 'RFC 6598' },
  { cidr: '127.0.0.0/8', name: 'loopback', rfc: 'RFC 1122' },
  { cidr: '169.254.0.0/16', name: 'link-local', rfc: 'RFC 3927' },
  { cidr: '172.16.0.0/12', name: 'private-use', rfc: 'RFC 1918' },
  { cidr: '192.0.0.0/24', name: 'IETF protocol assignments', rfc: 'RFC 6890' },
  { cidr: '192.0.0.0/29', name: 'IPv4 service continuity prefix', rfc: 'RFC 7335' },
  { cidr: '192.0.0.8/32', name: 'IPv4 dummy address', rfc: 'RFC 7600' },
  { cidr: '192.0.0.9/32', name: 'port control protocol anycast', rfc: 'RFC 7723' },
  { cidr: '192.0.0.10/32', name: 'TURN anycast', rfc: 'RFC 8155' },
  { cidr: '192.0.0.170/32', name: 'NAT64/DNS64 discovery', rfc: 'RFC 8880' },
  { cidr: '192.0.0.171/32', name: 'NAT64/DNS64 discovery', rfc: 'RFC 8880' },
  { cidr: '192.0.2.0/24', name: 'documentation (TEST-NET-1)', rfc: 'RFC 5737' },
  { cidr: '192.31.196.0/24', name: 'AS112-v4', rfc: 'RFC 7535' },
  { cidr: '192.52.193.0/24', name: 'AMT', rfc: 'RFC 7450' },
  { cidr: '192.88.99.0/24', name: 'deprecated 6to4 relay anycast', rfc: 'RFC 7526' },
  { cidr: '192.168.0.0/16', name: 'private-use', rfc: 'RFC 1918' },
  { cidr: '192.175.48.0/24', name: 'direct delegation AS112 service', rfc: 'RFC 7534' },
  { cidr: '198.18.0.0/15', name: 'benchmarking', rfc: 'RFC 2544' },
  { cidr: '198.51.100.0/24', name: 'documentation (TEST-NET-2)', rfc: 'RFC 5737' },
  { cidr: '203.0.113.0/24', name: 'documentation (TEST-NET-3)', rfc: 'RFC 5737' },
  { cidr: '224.0.0.0/4', name: 'multicast', rfc: 'RFC 5771' },
  { cidr: '240.0.0.0/4', name: 'reserved', rfc: 'RFC 1112' },
  { cidr: '255.255.255.255/32', name: 'limited broadcast', rfc: 'RFC 8190' },
]);

/**
 * The IPv6 rows. `::ffff:0:0/96` (IPv4-mapped) is the one range judged by what it carries: such an
 * address is the IPv4 address in its last 32 bits (a dual-stack socket connects there), so it is
 * refused exactly when that IPv4 address is. Every other range that embeds or translates IPv4
 * (IPv4-compatible, SIIT, NAT64, 6to4, Teredo) is refused whole: a public receiver has a plain
 * address, and what such an address reaches depends on gateways the server cannot see.
 */
export const SPECIAL_IPV6_RANGES: readonly SpecialRange[] = Object.freeze([
  { cidr: '::1/128', name: 'loopback', rfc: 'RFC 4291' },
  { cidr: '::/128', name: 'unspecified', rfc: 'RFC 4291' },
  { cidr: '::ffff:0:0/96', name: 'IPv4-mapped', rfc: 'RFC 4291' },
  { cidr: '::/96', name: 'IPv4-compatible (deprecated)', rfc: 'RFC 4291 §2.5.5.1' },
  { cidr: '::ffff:0:0:0/96', name: 'IPv4-translated (SIIT)', rfc: 'RFC 6145' },
  { cidr: '64:ff9b::/96', name: 'IPv4/IPv6 translation (NAT64)', rfc: 'RFC 6052' },
  { cidr: '64:ff9b:1::/48', name: 'local-use IPv4/IPv6 translation', rfc: 'RFC 8215' },
  { cidr: '100::/64', name: 'discard-only', rfc: 'RFC 6666' },
  { cidr: '100:0:0:1::/64', name: 'dummy IPv6 prefix', rfc: 'RFC 9780' },
  { cidr: '2001::/23', name: 'IETF protocol assignments', rfc: 'RFC 2928' },
  { cidr: '2001::/32', name: 'Teredo', rfc: 'RFC 4380' },
  { cidr: '2001:1::1/128', name: 'port control protocol anycast', rfc: 'RFC 7723' },
  { cidr: '2001:1::2/128', name: 'TURN anycast', rfc: 'RFC 8155' },
  { cidr: '2001:1::3/128', name: 'DNS-SD service registration anycast', rfc: 'RFC 9665' },
  { cidr: '2001:2::/48', name: 'benchmarking', rfc: 'RFC 5180' },
  { cidr: '2001:3::/32', name: 'AMT', rfc: 'RFC 7450' },
  { cidr: '2001:4:112::/48', name: 'AS112-v6', rfc: 'RFC 7535' },
  { cidr: '2001:10::/28', name: 'deprecated ORCHID', rfc: 'RFC 4843' },
  { cidr: '2001:20::/28', name: 'ORCHIDv2', rfc: 'RFC 7343' },
  { cidr: '2001:30::/28', name: 'drone remote ID tags', rfc: 'RFC 9374' },
  { cidr: '2001:db8::/32', name: 'documentation', rfc: 'RFC 3849' },
  { cidr: '2002::/16', name: '6to4', rfc: 'RFC 3056' },
  { cidr: '2620:4f:8000::/48', name: 'direct delegation AS112 service', rfc: 'RFC 7534' },
  { cidr: '3fff::/20', name: 'documentation', rfc: 'RFC 9637' },
  { cidr: '5f00::/16', name: 'segment routing (SRv6) SIDs', rfc: 'RFC 9602' },
  { cidr: 'fc00::/7', name: 'unique-local', rfc: 'RFC 4193' },
  { cidr: 'fe80::/10', name: 'link-local unicast', rfc: 'RFC 4291' },
  { cidr: 'fec0::/10', name: 'site-local (deprecated)', rfc: 'RFC 3879' },
  { cidr: 'ff00::/8', name: 'multicast', rfc: 'RFC 4291' },
]);

/** IPv6 outside this is not global unicast (unassigned, or one of the rows above): refused. */
const GLOBAL_UNICAST_V6 = '2000::/3';

type Parsed<T> = { row: SpecialRange; range: [T, number] };

let parsedV4: Parsed<ipaddr.IPv4>[] | undefined;
let parsedV6: Parsed<ipaddr.IPv6>[] | undefined;
let globalV6: [ipaddr.IPv6, number] | undefined;

function tables() {
  parsedV4 ??= SPECIAL_IPV4_RANGES.map((row) => ({ row, range: ipaddr.IPv4.parseCIDR(row.cidr) }));
  parsedV6 ??= SPECIAL_IPV6_RANGES.map((row) => ({ row, range: ipaddr.IPv6.parseCIDR(row.cidr) }));
  globalV6 ??= ipaddr.IPv6.parseCIDR(GLOBAL_UNICAST_V6);
  return { v4: parsedV4, v6: parsedV6, globalV6 };
}

const MAPPED = '::ffff:0:0/96';

/**
 * An IPv6 literal in the WHATWG URL parser's canonical form (never a dotted quad), so ipaddr.js
 * reads `::a.b.c.d` as the IPv4-COMPATIBLE address it is; undefined when it is not an IPv6 literal.
 */
function canonicalV6(address: string): string | undefined {
  try {
    const host = new URL(`http://[${address}]/`).hostname;
    return host.slice(1, -1);
  } catch {
    return undefined;
  }
}

/** What a refused address is: the table row it falls in (the most specific one), or a description. */
export type SpecialRangeMatch = { address: string; row: SpecialRange } | { address: string; reason: string };

/**
 * The special-purpose range an IP address falls in, or undefined for a public unicast address.
 * Accepts IPv4 dotted quads and IPv6 literals (with or without brackets); an IPv6 zone id
 * (`fe80::1%eth0`) makes the address scoped, which is never public. Anything that is not an IP
 * literal is reported as such.
 */
export function specialRangeOf(raw: string): SpecialRangeMatch | undefined {
  const bare = raw.startsWith('[') && raw.endsWith(']') ? raw.slice(1, -1) : raw;
  const { v4, v6, globalV6: global } = tables();
  if (ipaddr.IPv4.isValidFourPartDecimal(bare)) {
    const address = ipaddr.IPv4.parse(bare);
    return v4Match(address, v4);
  }
  if (bare.includes('%')) return { address: bare, reason: 'a scoped (zone) IPv6 address' };
  const canonical = bare.includes(':') ? canonicalV6(bare) : undefined;
  if (canonical === undefined || !ipaddr.IPv6.isValid(canonical)) {
    return { address: bare, reason: 'not an IP address' };
  }
  const address = ipaddr.IPv6.parse(canonical);
  const text = address.toString();
  let best: SpecialRange | undefined;
  let bestBits = -1;
  for (const { row, range } of v6) {
    if (!address.match(range)) continue;
    if (row.cidr === MAPPED) {
      // Judged by the IPv4 address it carries.
      const inner = v4Match(address.toIPv4Address(), v4);
      return inner === undefined ? undefined : { address: text, row: 'row' in inner ? inner.row : row };
    }
    if (range[1] > bestBits) {
      best = row;
      bestBits = range[1];
    }
  }
  if (best !== undefined) return { address: text, row: best };
  if (!address.match(global)) return { address: text, reason: 'outside global unicast (2000::/3)' };
  return undefined;
}

function v4Match(address: ipaddr.IPv4, rows: Parsed<ipaddr.IPv4>[]): SpecialRangeMatch | undefined {
  let best: SpecialRange | undefined;
  let bestBits = -1;
  for (const { row, range } of rows) {
    if (address.match(range) && range[1] > bestBits) {
      best = row;
      bestBits = range[1];
    }
  }
  return best === undefined ? undefined : { address: address.toString(), row: best };
}

/** A one-line description of a match, for the delivery log and the error details. */
export function describeSpecialRange(match: SpecialRangeMatch): string {
  return 'row' in match
    ? `${match.row.name} address ${match.address} (${match.row.cidr}, ${match.row.rfc}) is not allowed`
    : `${match.address} is ${match.reason}; not allowed`;
}
