/**
 * An independent judge of which hosts and resolved addresses an image may come from (written
 * from the RFCs and the IANA special-purpose registries, not from url-policy.ts or
 * special-addresses.ts), and generators of non-public addresses in every notation the URL parser
 * accepts: dotted, one number, hex, octal, short forms, IPv6 anywhere in every special block,
 * IPv4 inside IPv6 (mapped, compatible, translated, NAT64 and 6to4) and Teredo.
 */
import fc from 'fast-check';

/**
 * [first address, prefix length] of every IPv4 block an image must never come from: the IANA
 * IPv4 Special-Purpose Address Registry (RFC 6890 §2.2.2 and the RFCs that added rows), read
 * from the RFC text, plus multicast (RFC 5771) from the address-space registry.
 */
const NON_PUBLIC_V4: readonly (readonly [number, number])[] = [
  [0x00000000, 8], // RFC 1122 §3.2.1.3: "this network"
  [0x0a000000, 8], // RFC 1918 §3: 10/8 private
  [0x64400000, 10], // RFC 6598 §7: 100.64.0.0/10 shared address space (CGNAT)
  [0x7f000000, 8], // RFC 1122 §3.2.1.3: loopback
  [0xa9fe0000, 16], // RFC 3927 §2.1: link-local (cloud metadata)
  [0xac100000, 12], // RFC 1918 §3: 172.16/12 private
  [0xc0000000, 24], // RFC 6890 §2.2.2: 192.0.0.0/24 IETF protocol assignments
  [0xc0000200, 24], // RFC 5737 §3: TEST-NET-1
  [0xc01fc400, 24], // RFC 7535 §4: 192.31.196.0/24 AS112-v4
  [0xc034c100, 24], // RFC 7450 §7: 192.52.193.0/24 AMT
  [0xc0586300, 24], // RFC 3068 §2.3 / RFC 7526: 6to4 relay anycast
  [0xc0a80000, 16], // RFC 1918 §3: 192.168/16 private
  [0xc0af3000, 24], // RFC 7534 §7: 192.175.48.0/24 AS112 direct delegation
  [0xc6120000, 15], // RFC 2544 §C.2.2: 198.18.0.0/15 benchmarking
  [0xc6336400, 24], // RFC 5737 §3: TEST-NET-2
  [0xcb007100, 24], // RFC 5737 §3: TEST-NET-3
  [0xe0000000, 4], // RFC 5771: multicast
  [0xf0000000, 4], // RFC 1112 §4: reserved (and 255.255.255.255, RFC 919 limited broadcast)
];

/**
 * [prefix, length] of every IPv6 block an image must never come from: the IANA IPv6
 * Special-Purpose Address Registry (RFC 6890 §2.2.3 and later rows) and the address-space
 * registry's multicast and deprecated site-local blocks. The IPv4-carrying forms are judged by
 * what they carry (isNonPublicV6).
 */
const NON_PUBLIC_V6: readonly (readonly [string, number])[] = [
  ['::1', 128], // RFC 4291 §2.5.3 loopback
  ['::', 128], // RFC 4291 §2.5.2 unspecified
  ['64:ff9b:1::', 48], // RFC 8215 §4 local-use translation
  ['100::', 64], // RFC 6666 §4 discard-only
  ['100:0:0:1::', 64], // RFC 9780 dummy prefix
  ['2001::', 23], // RFC 2928 §2 IETF protocol assignments: Teredo (RFC 4380 §2.6), benchmarking (RFC 5180), ORCHID(v2) (RFC 4843, RFC 7343), AMT (RFC 7450), DETs (RFC 9374), anycast (RFC 7723, RFC 8155)
  ['2001:db8::', 32], // RFC 3849 §4 documentation
  ['2620:4f:8000::', 48], // RFC 7534 §7 AS112 direct delegation
  ['3fff::', 20], // RFC 9637 §5 documentation
  ['5f00::', 16], // RFC 9602 §6 SRv6 SIDs
  ['fc00::', 7], // RFC 4193 §3.1 unique local
  ['fe80::', 10], // RFC 4291 §2.5.6 link-local
  ['fec0::', 10], // RFC 3879 §4 site-local, deprecated
  ['ff00::', 8], // RFC 4291 §2.7 multicast
];

function inBlock(address: number, [start, bits]: readonly [number, number]): boolean {
  const mask = bits === 0 ? 0 : (0xffffffff << (32 - bits)) >>> 0;
  return (address & mask) >>> 0 === start;
}

function v4Number(dotted: string): number | null {
  const parts = dotted.split('.').map(Number);
  if (parts.length !== 4 || parts.some((part) => !Number.isInteger(part) || part > 255))
    return null;
  return parts.reduce((sum, part) => sum * 256 + part, 0);
}

function isNonPublicV4(address: number): boolean {
  return NON_PUBLIC_V4.some((block) => inBlock(address, block));
}

/** The eight 16-bit groups of a (URL-normalised, hex-only) IPv6 literal. */
function v6Groups(host: string): number[] {
  const [head = '', tail] = host.split('::');
  const left = head ? head.split(':') : [];
  const right = tail ? tail.split(':') : [];
  const zeros = tail === undefined ? [] : Array<string>(8 - left.length - right.length).fill('0');
  return [...left, ...zeros, ...right].map((group) => parseInt(group, 16));
}

function v6BigInt(groups: readonly number[]): bigint {
  return groups.reduce((sum, group) => (sum << 16n) | BigInt(group), 0n);
}

function inV6Block(value: bigint, [prefix, bits]: readonly [string, number]): boolean {
  const shift = BigInt(128 - bits);
  return value >> shift === v6BigInt(v6Groups(prefix)) >> shift;
}

function isNonPublicV6(host: string): boolean {
  const groups = v6Groups(host.replace(/%.*$/, ''));
  const [first = 0] = groups;
  const allZero = (from: number, to: number) =>
    groups.slice(from, to).every((group) => group === 0);
  const v4At = (high: number) =>
    isNonPublicV4(((groups[high] ?? 0) * 0x10000 + (groups[high + 1] ?? 0)) >>> 0);
  // RFC 4291 §2.5.5: IPv4-compatible (::a.b.c.d, which covers :: and ::1) and IPv4-mapped.
  if (allZero(0, 6)) return v4At(6);
  if (allZero(0, 5) && groups[5] === 0xffff) return v4At(6);
  // RFC 2765 §2.1: IPv4-translated ::ffff:0:a.b.c.d.
  if (allZero(0, 4) && groups[4] === 0xffff && groups[5] === 0) return v4At(6);
  // RFC 6052 §2.1: NAT64's well-known prefix 64:ff9b::/96.
  if (first === 0x64 && groups[1] === 0xff9b && allZero(2, 6)) return v4At(6);
  // RFC 3056 §2: 6to4, 2002:V4ADDR::/48.
  if (first === 0x2002) return v4At(1);
  const value = v6BigInt(groups);
  return NON_PUBLIC_V6.some((block) => inV6Block(value, block));
}

/** RFC 4380 §4: a Teredo address's client IPv4 address, stored with every bit inverted. */
export function teredoClient(host: string): number | null {
  const groups = v6Groups(host);
  if (groups[0] !== 0x2001 || groups[1] !== 0) return null;
  return ~(((groups[6] ?? 0) << 16) | (groups[7] ?? 0)) >>> 0;
}

/** True when connecting to this IP address (as a resolver returns it) leaves the internet. */
export function isNonPublicIp(address: string): boolean {
  const v4 = v4Number(address);
  if (v4 !== null) return isNonPublicV4(v4);
  // A dotted IPv4 tail (::ffff:1.2.3.4) is the last two groups written another way.
  const hexOnly = address.replace(/(\d+\.\d+\.\d+\.\d+)$/, (inner) => {
    const n = v4Number(inner) ?? 0;
    return `${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`;
  });
  return isNonPublicV6(hexOnly);
}

/** True when an image at this (parsed, WHATWG) hostname could reach this machine or its network. */
export function isNonPublicHost(hostname: string): boolean {
  const host = hostname.toLowerCase().replace(/\.$/, '');
  if (host === 'localhost' || host.endsWith('.localhost')) return true;
  if (host.startsWith('[')) return isNonPublicV6(host.slice(1, -1));
  const v4 = v4Number(host);
  return v4 !== null && isNonPublicV4(v4);
}

/** A random address inside one of the non-public IPv4 blocks. */
export const nonPublicV4: fc.Arbitrary<number> = fc
  .tuple(fc.constantFrom(...NON_PUBLIC_V4), fc.nat())
  .map(([[start, bits], random]) => (start + (bits === 32 ? 0 : random % 2 ** (32 - bits))) >>> 0);

/** A random address the policy must accept (well-known public blocks, minus special rows). */
export const publicV4: fc.Arbitrary<number> = fc
  .tuple(
    fc.constantFrom(8, 9, 23, 34, 93, 104, 142, 151, 185, 192, 198, 203),
    fc.nat({ max: 0xffffff }),
  )
  .map(([first, rest]) => (first * 0x1000000 + rest) >>> 0)
  .filter((n) => !isNonPublicV4(n));

const bytes = (n: number) => [n >>> 24, (n >>> 16) & 255, (n >>> 8) & 255, n & 255] as const;
export const dotted = (n: number): string => bytes(n).join('.');

/** Every spelling of an IPv4 address that WHATWG URL reads as the same address. */
export function v4Notations(n: number): string[] {
  const [a, b, c, d] = bytes(n);
  const hex = (value: number) => `0x${value.toString(16)}`;
  const oct = (value: number) => `0${value.toString(8)}`;
  return [
    `${a}.${b}.${c}.${d}`,
    `${n}`,
    hex(n),
    `0X${n.toString(16).toUpperCase()}`,
    oct(n),
    [a, b, c, d].map(hex).join('.'),
    [a, b, c, d].map(oct).join('.'),
    `${a}.${b}.${c * 256 + d}`,
    `${a}.${(b << 16) + (c << 8) + d}`,
    `${hex(a)}.${b}.${oct(c * 256 + d)}`,
    `${a}.${b}.${c}.${d}.`,
  ];
}

const hex4 = fc.integer({ min: 0, max: 0xffff }).map((group) => group.toString(16));

/**
 * Non-public IPv6 literals (without brackets), in compressed, full and mapped spellings, and
 * IPv6 forms that carry a non-public IPv4 address inside.
 */
export const nonPublicV6: fc.Arbitrary<string> = fc.oneof(
  fc.constantFrom('::1', '0:0:0:0:0:0:0:1', '0000:0000::0001', '::', '0::0'),
  nonPublicV4.map((n) => `::ffff:${dotted(n)}`),
  nonPublicV4.map((n) => `0:0:0:0:0:FFFF:${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`),
  // IPv4 inside IPv6: compatible, translated, NAT64 (well-known and local-use) and 6to4.
  nonPublicV4.map((n) => `::${dotted(n)}`),
  nonPublicV4.map((n) => `::ffff:0:${dotted(n)}`),
  nonPublicV4.map((n) => `64:ff9b::${dotted(n)}`),
  fc.tuple(hex4, hex4).map(([a, b]) => `64:ff9b:1:${a}::${b}`),
  fc
    .tuple(nonPublicV4, hex4)
    .map(([n, last]) => `2002:${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}::${last}`),
  fc
    .tuple(fc.integer({ min: 0xfe80, max: 0xfebf }), hex4)
    .map(([first, last]) => `${first.toString(16)}::${last}`),
  fc
    .tuple(fc.integer({ min: 0xfc00, max: 0xfdff }), hex4, hex4)
    .map(([first, b, last]) => `${first.toString(16)}:${b}::${last}`),
  fc
    .tuple(fc.integer({ min: 0xff00, max: 0xffff }), hex4)
    .map(([first, last]) => `${first.toString(16).toUpperCase()}::${last}`),
  // Anywhere inside every block of the IPv6 table, and Teredo with any client at all.
  fc.constantFrom(...NON_PUBLIC_V6).chain(([prefix, bits]) => inV6Prefix(prefix, bits)),
  fc
    .tuple(fc.nat(), fc.nat(), fc.oneof(nonPublicV4, publicV4))
    .map(([server, port, client]) => teredo(server >>> 0, port & 0xffff, client)),
);

function v6Text(value: bigint): string {
  const groups: string[] = [];
  for (let index = 7; index >= 0; index -= 1)
    groups.push(((value >> BigInt(index * 16)) & 0xffffn).toString(16));
  return groups.join(':');
}

/** A random address inside prefix/bits, every group written out. */
function inV6Prefix(prefix: string, bits: number): fc.Arbitrary<string> {
  const size = 1n << BigInt(128 - bits);
  const base = (v6BigInt(v6Groups(prefix)) / size) * size;
  return fc.bigInt({ min: 0n, max: size - 1n }).map((offset) => v6Text(base + offset));
}

/** RFC 4380 §4: 2001:0:<server v4>:<flags>:<port ^ 0xffff>:<client v4 ^ 0xffffffff>. */
export function teredo(server: number, port: number, client: number): string {
  const inverted = ~client >>> 0;
  const groups = [0x2001, 0, server >>> 16, server & 0xffff, 0x8000, ~port & 0xffff];
  return [...groups, inverted >>> 16, inverted & 0xffff].map((g) => g.toString(16)).join(':');
}

/** Global unicast (2000::/3) addresses outside every special block, and public IPv4 inside IPv6. */
export const publicV6: fc.Arbitrary<string> = fc
  .oneof(
    inV6Prefix('2000::', 3),
    publicV4.map((n) => `::ffff:${dotted(n)}`),
    publicV4.map((n) => `64:ff9b::${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}`),
    publicV4.map((n) => `2002:${(n >>> 16).toString(16)}:${(n & 0xffff).toString(16)}::1`),
  )
  .filter((address) => !isNonPublicIp(address));
