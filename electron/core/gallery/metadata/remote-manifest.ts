/**
 * C2PA's other way to attach Content Credentials: no manifest store in the file, but its address
 * in the file's XMP, `dcterms:provenance` (C2PA's "remote manifest"; Adobe's cloud manifests are
 * such). The store is fetched from there and hashes the file's bytes all the same, so editing the
 * file breaks it as surely as an embedded one. c2pa-detect.ts notes where the container keeps its
 * XMP (PNG `iTXt` `XML:com.adobe.xmp`, JPEG APP1 `http://ns.adobe.com/xap/1.0/`, WebP `XMP `);
 * this reads that packet (bounded) and looks for the property by its namespace and name, in the
 * two forms RDF gives it (an attribute, an element), with an http(s) address as its value.
 */
import { constants, inflateSync } from 'node:zlib';
import type { ImageKind } from '../../images';

/** The most of an XMP packet looked at: far above the few kilobytes hosts write. */
export const MAX_XMP_PROBE_BYTES = 256 * 1024;

const PNG_KEYWORD = 'XML:com.adobe.xmp\0';
const JPEG_NAMESPACE = 'http://ns.adobe.com/xap/1.0/\0';
/** Bytes that tell whether a chunk or segment holds XMP (its keyword or namespace). */
export const XMP_PROBE_BYTES = JPEG_NAMESPACE.length;

const latin1 = (bytes: Uint8Array, from: number, to: number) =>
  String.fromCharCode(...bytes.subarray(from, to));

/**
 * Whether a PNG `iTXt` chunk's or a JPEG APP1 segment's first bytes say it holds XMP (a WebP
 * `XMP ` chunk says so by its name).
 */
export function opensXmp(kind: ImageKind, head: Uint8Array): boolean {
  if (kind === 'png') return latin1(head, 0, PNG_KEYWORD.length) === PNG_KEYWORD;
  if (kind === 'jpeg') return latin1(head, 0, JPEG_NAMESPACE.length) === JPEG_NAMESPACE;
  return true;
}

/** A PNG iTXt chunk's text: after its keyword, flags, language and translated keyword. */
function pngText(data: Uint8Array): Uint8Array | null {
  let at = PNG_KEYWORD.length;
  const compressed = data[at] === 1;
  at += 2;
  for (let fields = 0; fields < 2; fields += 1) {
    const end = data.indexOf(0, at);
    if (end < 0) return null;
    at = end + 1;
  }
  const text = data.subarray(at);
  return compressed ? inflatedStart(text) : text;
}

/**
 * The start of a deflated packet, as much of it as a plain one is read (MAX_XMP_PROBE_BYTES):
 * a stream cut where the bytes read end is inflated as far as it goes, and one that inflates past
 * the bound is inflated from less of its input (halved until it fits: a few tries, each bounded
 * by the bound). Null when its data is broken.
 */
function inflatedStart(deflated: Uint8Array): Uint8Array | null {
  for (let take = deflated.length; take > 0; take = Math.floor(take / 2)) {
    try {
      return inflateSync(deflated.subarray(0, take), {
        finishFlush: constants.Z_SYNC_FLUSH,
        maxOutputLength: MAX_XMP_PROBE_BYTES,
      });
    } catch (error) {
      if (!(error instanceof RangeError)) return null;
    }
  }
  return null;
}

/** The XMP packet's text in a chunk's or segment's data (as much of it as was read). */
function packetText(kind: ImageKind, data: Uint8Array): string {
  const text =
    kind === 'png' ? pngText(data) : kind === 'jpeg' ? data.subarray(JPEG_NAMESPACE.length) : data;
  return text ? new TextDecoder('utf-8', { fatal: false }).decode(text) : '';
}

const DCTERMS = /xmlns:([A-Za-z_][\w.-]*)\s*=\s*(["'])http:\/\/purl\.org\/dc\/terms\/\2/g;
/** Prefixes bound to Dublin Core's terms looked at, and places each may name the property. */
const MAX_PREFIXES = 4;
const MAX_PLACES = 64;
/** How far past the property's name its value may end (an address is far shorter). */
const MAX_REACH = 2048;
const ELEMENT = /^(?:\s[^<>]*)?>\s*(https?:\/\/[^\s<]+)\s*<\//i;
const ATTRIBUTE = /^\s*=\s*(["'])\s*(https?:\/\/[^\s"'<]+)\s*\1/i;

/** The address the property at `at` (its name `length` long) gives, in either form, or null. */
function valueAt(packet: string, at: number, length: number): string | null {
  const rest = packet.slice(at + length, at + length + MAX_REACH);
  const before = packet[at - 1] ?? '';
  if (before === '<') return ELEMENT.exec(rest)?.[1] ?? null;
  return /\s/.test(before) ? (ATTRIBUTE.exec(rest)?.[2] ?? null) : null;
}

/**
 * The http(s) address a packet's `dcterms:provenance` gives (under whatever prefix the packet
 * binds to Dublin Core's terms namespace), or null. Every look is bounded: a few prefixes, a few
 * places each, a short reach from each (a hostile packet costs no more than a long honest one).
 */
export function remoteManifestAddress(packet: string): string | null {
  const prefixes = new Set<string>();
  for (const [, prefix = ''] of packet.matchAll(DCTERMS)) {
    prefixes.add(prefix);
    if (prefixes.size >= MAX_PREFIXES) break;
  }
  for (const prefix of prefixes) {
    const name = `${prefix}:provenance`;
    for (let at = packet.indexOf(name), n = 0; at >= 0 && n < MAX_PLACES; n += 1) {
      const value = valueAt(packet, at, name.length);
      if (value) return value;
      at = packet.indexOf(name, at + name.length);
    }
  }
  return null;
}

/** {@link remoteManifestAddress} of the XMP in a chunk's or segment's data. */
export function remoteManifestIn(kind: ImageKind, data: Uint8Array): string | null {
  return remoteManifestAddress(packetText(kind, data));
}
