/**
 * Recognises an image by its first bytes. The Content-Type header is not trusted either way:
 * servers send HTML error pages as image/png and real PNGs as application/octet-stream.
 */

export type ImageKind = 'png' | 'jpeg' | 'webp';

export const IMAGE_MIME = { png: 'image/png', jpeg: 'image/jpeg', webp: 'image/webp' } as const;
export const IMAGE_EXTENSION = { png: 'png', jpeg: 'jpg', webp: 'webp' } as const;

/** Bytes needed to tell the three image kinds apart. */
export const SNIFF_BYTES = 12;
/** Bytes kept to describe something that is not an image. */
export const DESCRIBE_BYTES = 1024;

const PNG = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];
const JPEG = [0xff, 0xd8, 0xff];

function startsWith(head: Uint8Array, bytes: readonly number[], offset = 0): boolean {
  return bytes.every((byte, i) => head[offset + i] === byte);
}

function ascii(head: Uint8Array, start: number, end: number): string {
  return String.fromCharCode(...head.subarray(start, end));
}

/** The image kind the bytes start with, or `null` (also when fewer than 12 bytes are given). */
export function sniffImage(head: Uint8Array): ImageKind | null {
  if (head.length < SNIFF_BYTES) return null;
  if (startsWith(head, PNG)) return 'png';
  if (startsWith(head, JPEG)) return 'jpeg';
  if (ascii(head, 0, 4) === 'RIFF' && ascii(head, 8, 12) === 'WEBP') return 'webp';
  return null;
}

const TEXT_SHAPES: readonly [RegExp, string][] = [
  [/^<!doctype html|^<html|<head[\s>]|<body[\s>]/, 'html'],
  [/^(<\?xml[^>]*>\s*)?(<!--[\s\S]*?-->\s*)*(<!doctype svg[^>]*>\s*)?<svg[\s>]/, 'svg'],
  [/^<\?xml/, 'xml'],
  [/^[{[]/, 'json'],
];

const BINARY_SHAPES: readonly [(head: Uint8Array) => boolean, string][] = [
  [(head) => ascii(head, 0, 4) === 'GIF8', 'gif'],
  [(head) => ascii(head, 0, 2) === 'BM', 'bmp'],
  [(head) => ascii(head, 0, 4) === 'II*\0' || ascii(head, 0, 4) === 'MM\0*', 'tiff'],
  [(head) => ascii(head, 4, 8) === 'ftyp', 'heif'],
  [(head) => ascii(head, 0, 4) === '%PDF', 'pdf'],
  [(head) => startsWith(head, [0x1f, 0x8b]), 'gzip'],
  [(head) => ascii(head, 0, 2) === 'PK', 'zip'],
];

/**
 * What a non-image looked like, as the `kind` of the `error.gallery.notAnImage` sentence
 * (`html`, `svg`, `empty`…): the sentence words it.
 */
export function describeNonImage(head: Uint8Array): string {
  if (head.length === 0) return 'empty';
  const binary = BINARY_SHAPES.find(([test]) => test(head));
  if (binary) return binary[1];
  const text = new TextDecoder('utf-8', { fatal: false })
    .decode(head.subarray(0, DESCRIBE_BYTES))
    .replace(/^\uFEFF/, '')
    .trimStart()
    .toLowerCase();
  const shape = TEXT_SHAPES.find(([pattern]) => pattern.test(text));
  if (shape) return shape[1];
  if (startsWith(head, PNG) || startsWith(head, JPEG)) return 'fragment';
  return /^[\x20-\x7e\s]*$/.test(text) ? 'text' : 'unknown';
}
