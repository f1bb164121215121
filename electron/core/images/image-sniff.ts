/**
 * Recognises an image by its first bytes. The Content-Type header is not trusted either way:
 * servers send HTML error pages as image/png and real PNGs as application/octet-stream. The three
 * kinds' signatures are shared with the image page (shared/domain/image-kind.ts); what a
 * non-image looked like is said here.
 */
import {
  PNG_SIGNATURE,
  JPEG_SIGNATURE,
  ascii,
  startsWith,
} from '../../../shared/domain/image-kind';

export {
  IMAGE_EXTENSION,
  IMAGE_MIME,
  SNIFF_BYTES,
  sniffImage,
  type ImageKind,
} from '../../../shared/domain/image-kind';

/** Bytes kept to describe something that is not an image. */
export const DESCRIBE_BYTES = 1024;

/** `text` from `at` on, past the whitespace there. */
function pastSpace(text: string, at: number): number {
  let next = at;
  while (next < text.length && /\s/.test(text.charAt(next))) next += 1;
  return next;
}

/**
 * Whether `text` (lower case) is an SVG document: an optional XML declaration, comments, an
 * optional SVG doctype, then `<svg`. Scanned in one pass, each comment to its first `-->`: the
 * pattern it replaces, `(<!--[\s\S]*?-->\s*)*`, tried every way of grouping a run of comments
 * when no `<svg` followed, so 30 empty comments held the thread for more than a minute and the
 * 1 KB described, for ever.
 */
function isSvg(text: string): boolean {
  let at = 0;
  if (text.startsWith('<?xml')) {
    const end = text.indexOf('>', at);
    if (end < 0) return false;
    at = pastSpace(text, end + 1);
  }
  while (text.startsWith('<!--', at)) {
    const end = text.indexOf('-->', at + 4);
    if (end < 0) return false;
    at = pastSpace(text, end + 3);
  }
  if (text.startsWith('<!doctype svg', at)) {
    const end = text.indexOf('>', at);
    if (end < 0) return false;
    at = pastSpace(text, end + 1);
  }
  return /^<svg[\s>]/.test(text.slice(at, at + 5));
}

const TEXT_SHAPES: readonly [(text: string) => boolean, string][] = [
  [(text) => /^<!doctype html|^<html|<head[\s>]|<body[\s>]/.test(text), 'html'],
  [isSvg, 'svg'],
  [(text) => text.startsWith('<?xml'), 'xml'],
  [(text) => /^[{[]/.test(text), 'json'],
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
  const shape = TEXT_SHAPES.find(([test]) => test(text));
  if (shape) return shape[1];
  if (startsWith(head, PNG_SIGNATURE) || startsWith(head, JPEG_SIGNATURE)) return 'fragment';
  return /^[\x20-\x7e\s]*$/.test(text) ? 'text' : 'unknown';
}
