/**
 * What the rest of Pictor asks of images, each one job on the image workers (image-workers.ts).
 * Every function rejects with ImagesUnavailableError when the image code cannot load.
 */
import type { CheckResult, ImageHeader } from './image-protocol';
import { imageWorkers, type ImageWorkers } from './image-workers';

/** Structured clone turns a worker's Buffer into a Uint8Array; this is the same bytes, no copy. */
function asBuffer(bytes: Uint8Array): Buffer {
  return Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/**
 * Reads the header of `file` (a file Pictor wrote) and, when it is a `kind` image within
 * `maxPixels`, decodes all of it while making a WebP thumbnail that fits `thumbnailSize`.
 */
export async function checkImageFile(
  file: string,
  kind: string,
  limits: { maxPixels: number; thumbnailSize: number },
  pool: ImageWorkers = imageWorkers(),
): Promise<CheckResult> {
  return pool.run<CheckResult>({ op: 'check', file, kind, ...limits });
}

/** The header of an image held in memory (no pixel is decoded). */
export function readImageHeader(
  bytes: Uint8Array,
  pool: ImageWorkers = imageWorkers(),
): Promise<ImageHeader> {
  return pool.run<ImageHeader>({ op: 'header', bytes });
}

/** The image as PNG. */
export async function convertToPng(
  bytes: Uint8Array,
  pool: ImageWorkers = imageWorkers(),
): Promise<Buffer> {
  return asBuffer(await pool.run<Uint8Array>({ op: 'png', bytes }));
}

/** A PNG that fits inside `size`×`size`. */
export async function iconPng(
  bytes: Uint8Array,
  size: number,
  pool: ImageWorkers = imageWorkers(),
): Promise<Buffer> {
  return asBuffer(await pool.run<Uint8Array>({ op: 'icon', bytes, size }));
}

/** An SVG rendered to an exact-size PNG (fast, lightly compressed). */
export async function renderSvgPng(
  svg: string,
  size: { width: number; height: number },
  pool: ImageWorkers = imageWorkers(),
): Promise<Buffer> {
  return asBuffer(await pool.run<Uint8Array>({ op: 'svg', svg, ...size }));
}
