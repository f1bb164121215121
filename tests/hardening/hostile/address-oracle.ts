/**
 * An independent judge of which hosts an image may come from (written from the RFCs, not from
 * url-policy.ts), and generators of non-public addresses in every notation the URL parser
 * accepts: dotted, one number, hex, octal, short forms, IPv6, and IPv4 inside IPv6 (mapped,
 * compatible, translated, NAT64 and 6to4).
 */
import fc from 'fast-check';

/** [first address, prefix length] of every IPv4 block an image must never come from. */
const NON_PUBLIC_V4: readonly (readonly [number, number])[] = [
  [0x00000000, 8], // this network
  [0x0a000000, 8], // private
  [0x64400000, 10], // CGNAT
  [0x7f000000, 8], // loopback
  [0xa9fe0000, 16], // link-local (cloud metadata)
  [0xac100000, 12], // private
  [0xc0a80000, 16], // private
  [0xe0000000, 3], // multicast, reserved, broadcast
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

function isNonPublicV6(host: string): boolean {
  const groups = v6Groups(host);
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
  // RFC 6052 §2.1: NAT64's well-known prefix 64:ff9b::/96; RFC 8215: its local-use 64:ff9b:1::/48.
  if (first === 0x64 && groups[1] === 0xff9b && allZero(2, 6)) return v4At(6);
  if (first === 0x64 && groups[1] === 0xff9b && groups[2] === 1) return true;
  // RFC 3056 §2: 6to4, 2002:V4ADDR::/48.
  if (first === 0x2002) return v4At(1);
  return (first & 0xffc0) === 0xfe80 || (first & 0xfe00) === 0xfc00 || (first & 0xff00) === 0xff00;
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

/** A random address the policy must accept (well-known public blocks). */
export const publicV4: fc.Arbitrary<number> = fc
  .tuple(fc.constantFrom(8, 9, 23, 34, 93, 104, 142, 151, 185, 203), fc.nat({ max: 0xffffff }))
  .map(([first, rest]) => (first * 0x1000000 + rest) >>> 0);

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
);
