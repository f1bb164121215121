/**
 * Which IP addresses an image may never come from: every row of the IANA IPv4 and IPv6
 * Special-Purpose Address Registries (RFC 6890), plus multicast and the deprecated site-local
 * block from the address-space registries, as one table of CIDR strings matched by Node's
 * BlockList. A handful of rows are "globally reachable" anycast services (PCP, TURN, AS112,
 * AMT, ORCHIDv2…); none of them serves images, so refusing them costs nothing and keeps the
 * table a plain list.
 *
 * IPv6 forms that carry an IPv4 address (mapped, compatible, translated, NAT64 and 6to4) are
 * judged by the address they carry: the network routes them there.
 */
import { BlockList, isIPv4, isIPv6 } from 'node:net';

export interface SpecialRange {
  readonly cidr: string;
  readonly rfc: string;
  readonly purpose: string;
}

const row = (cidr: string, rfc: string, purpose: string): SpecialRange => ({ cidr, rfc, purpose });

const LOOPBACK_RANGES: readonly SpecialRange[] = [
  row('127.0.0.0/8', 'RFC 1122', 'Loopback'),
  row('::1/128', 'RFC 4291', 'Loopback'),
];

export const SPECIAL_RANGES_V4: readonly SpecialRange[] = [
  row('0.0.0.0/8', 'RFC 791', '"This network"'),
  row('10.0.0.0/8', 'RFC 1918', 'Private-Use'),
  row('100.64.0.0/10', 'RFC 6598', 'Shared Address Space'),
  row('169.254.0.0/16', 'RFC 3927', 'Link Local'),
  row('172.16.0.0/12', 'RFC 1918', 'Private-Use'),
  // Covers 192.0.0.0/29, .8, .9, .10, .170, .171 (RFC 7335, 7600, 7723, 8155, 8880).
  row('192.0.0.0/24', 'RFC 6890', 'IETF Protocol Assignments'),
  row('192.0.2.0/24', 'RFC 5737', 'Documentation (TEST-NET-1)'),
  row('192.31.196.0/24', 'RFC 7535', 'AS112-v4'),
  row('192.52.193.0/24', 'RFC 7450', 'AMT'),
  row('192.88.99.0/24', 'RFC 7526', 'Deprecated (6to4 Relay Anycast)'),
  row('192.168.0.0/16', 'RFC 1918', 'Private-Use'),
  row('192.175.48.0/24', 'RFC 7534', 'Direct Delegation AS112 Service'),
  row('198.18.0.0/15', 'RFC 2544', 'Benchmarking'),
  row('198.51.100.0/24', 'RFC 5737', 'Documentation (TEST-NET-2)'),
  row('203.0.113.0/24', 'RFC 5737', 'Documentation (TEST-NET-3)'),
  row('224.0.0.0/4', 'RFC 5771', 'Multicast'),
  row('240.0.0.0/4', 'RFC 1112', 'Reserved'),
  row('255.255.255.255/32', 'RFC 919', 'Limited Broadcast'),
];

export const SPECIAL_RANGES_V6: readonly SpecialRange[] = [
  row('::/128', 'RFC 4291', 'Unspecified Address'),
  row('64:ff9b:1::/48', 'RFC 8215', 'IPv4-IPv6 Translation (local use)'),
  row('100::/64', 'RFC 6666', 'Discard-Only Address Block'),
  row('100:0:0:1::/64', 'RFC 9780', 'Dummy IPv6 Prefix'),
  // Covers Teredo 2001::/32 (RFC 4380) whatever client it carries, benchmarking 2001:2::/48,
  // AMT 2001:3::/32, AS112 2001:4:112::/48, ORCHID 2001:10::/28, ORCHIDv2 2001:20::/28,
  // DETs 2001:30::/28 and the anycast 2001:1::1, ::2, ::3.
  row('2001::/23', 'RFC 2928', 'IETF Protocol Assignments'),
  row('2001:db8::/32', 'RFC 3849', 'Documentation'),
  row('2620:4f:8000::/48', 'RFC 7534', 'Direct Delegation AS112 Service'),
  row('3fff::/20', 'RFC 9637', 'Documentation'),
  row('5f00::/16', 'RFC 9602', 'Segment Routing (SRv6) SIDs'),
  row('fc00::/7', 'RFC 4193', 'Unique-Local'),
  row('fe80::/10', 'RFC 4291', 'Link-Local Unicast'),
  row('fec0::/10', 'RFC 3879', 'Site-Local (deprecated)'),
  row('ff00::/8', 'RFC 4291', 'Multicast'),
];

/** IPv6 prefixes whose last 32 bits (6to4: bits 16–47) are an IPv4 address the packet goes to. */
export const EMBEDDING_RANGES_V6: readonly (SpecialRange & { readonly v4Group: number })[] = [
  { ...row('::ffff:0:0/96', 'RFC 4291', 'IPv4-mapped Address'), v4Group: 6 },
  { ...row('::/96', 'RFC 4291', 'IPv4-compatible Address (deprecated)'), v4Group: 6 },
  { ...row('::ffff:0:0:0/96', 'RFC 2765', 'IPv4-translated Address'), v4Group: 6 },
  { ...row('64:ff9b::/96', 'RFC 6052', 'IPv4-IPv6 Translation'), v4Group: 6 },
  { ...row('2002::/16', 'RFC 3056', '6to4'), v4Group: 1 },
];

function blockList(ranges: readonly SpecialRange[]): BlockList {
  const list = new BlockList();
  for (const { cidr } of ranges) {
    const [network = '', bits = ''] = cidr.split('/');
    list.addSubnet(network, Number(bits), isIPv4(network) ? 'ipv4' : 'ipv6');
  }
  return list;
}

// BlockList matches an IPv4 rule against the IPv4-mapped spelling too (and the reverse), so the
// embedding prefixes are kept out of it and handled by embeddedIpv4.
const SPECIAL = blockList([...SPECIAL_RANGES_V4, ...SPECIAL_RANGES_V6]);
const LOOPBACK = blockList(LOOPBACK_RANGES);

/** The eight 16-bit groups of an IPv6 address (a dotted IPv4 tail allowed), or null. */
function ipv6Groups(address: string): number[] | null {
  if (!isIPv6(address)) return null;
  let text = address.toLowerCase();
  const tail = /(\d+)\.(\d+)\.(\d+)\.(\d+)$/.exec(text);
  if (tail) {
    const [a, b, c, d] = tail.slice(1).map(Number) as [number, number, number, number];
    text = `${text.slice(0, tail.index)}${((a << 8) | b).toString(16)}:${((c << 8) | d).toString(16)}`;
  }
  const [head = '', rest] = text.split('::');
  const left = head ? head.split(':') : [];
  const right = rest ? rest.split(':') : [];
  const zeros = rest === undefined ? 0 : 8 - left.length - right.length;
  return [...left, ...Array<string>(zeros).fill('0'), ...right].map((g) => parseInt(g, 16));
}

function inPrefix(groups: readonly number[], cidr: string): boolean {
  const [network = '', bits = '0'] = cidr.split('/');
  const base = ipv6Groups(network) ?? [];
  let left = Number(bits);
  for (let index = 0; left > 0; index += 1, left -= 16) {
    const mask = left >= 16 ? 0xffff : (0xffff << (16 - left)) & 0xffff;
    if (((groups[index] ?? 0) & mask) !== ((base[index] ?? 0) & mask)) return false;
  }
  return true;
}

/** The IPv4 address an IPv6 address carries (see EMBEDDING_RANGES_V6), or null. */
export function embeddedIpv4(address: string): string | null {
  const groups = ipv6Groups(address);
  if (!groups) return null;
  const embedding = EMBEDDING_RANGES_V6.find((range) => inPrefix(groups, range.cidr));
  if (!embedding) return null;
  const high = groups[embedding.v4Group] ?? 0;
  const low = groups[embedding.v4Group + 1] ?? 0;
  return [high >> 8, high & 255, low >> 8, low & 255].join('.');
}

export type AddressKind = 'public' | 'loopback' | 'special';

/**
 * What connecting to this IP address reaches: this computer (`loopback`), a network that is
 * not the public internet (`special`), or the internet. `null` when it is not an IP address.
 */
export function classifyAddress(address: string): AddressKind | null {
  const family = isIPv4(address) ? 'ipv4' : isIPv6(address) ? 'ipv6' : null;
  if (family === null) return null;
  if (LOOPBACK.check(address, family)) return 'loopback';
  if (family === 'ipv6') {
    const inner = embeddedIpv4(address);
    if (inner !== null) {
      const kind = classifyAddress(inner);
      // Only the mapped form is the IPv4 address itself on a socket; the others are routed.
      const mapped = inPrefix(ipv6Groups(address) ?? [], '::ffff:0:0/96');
      return kind === 'loopback' && !mapped ? 'special' : kind;
    }
  }
  return SPECIAL.check(address, family) ? 'special' : 'public';
}
