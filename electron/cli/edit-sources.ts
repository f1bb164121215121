/**
 * The images of `pictor edit` and `pictor upscale`, read before anything is sent: the source and
 * each --ref are a library image (an image-ref, `ID` or `ID#N`, as the triage commands take it:
 * the result keeps it as its parent) or a PNG, JPEG or WebP file; --mask is a PNG at the source's
 * exact size, whose convention its header tells (an alpha channel: alpha 0 = edit; none: white =
 * edit). Every image is kept in the library's input store by the digest of its bytes.
 */
import { realpath } from 'node:fs/promises';
import { deflateSync } from 'node:zlib';
import { dirname } from 'node:path';
import {
  MAX_INPUT_BYTES,
  type ImageParent,
  type InputImage,
} from '../../shared/domain/image-inputs';
import type { MaskConvention } from '../../shared/domain/model-capabilities';
import { maskCoverage, maskPngs } from '../../shared/domain/mask-png';
import { PngDamagedError, PngUnsupportedError, decodePng } from '../demo-service/png-codec';
import { UsageError } from '../core/command-line';
import { systemErrorCode } from '../core/errors';
import { readRegularFile } from '../core/fs';
import { findTask, type IdHistory } from './task-ids';
import { sniffImage } from '../core/images';

/** Where the images are kept (the input store), and the library they may come from. */
export interface EditSourceDeps {
  readonly put: (bytes: Uint8Array) => Promise<InputImage>;
  readonly history: IdHistory;
  /** The absolute path of a gallery file, and the gallery's root. */
  readonly gallery: { resolve(relative: string): string; readonly root: string };
}

/** One image read: what the store keeps, and the library image it came from. */
export interface ReadImage {
  readonly image: InputImage;
  readonly parent?: ImageParent;
}

const REF = /^(.+?)(?:#([1-9]\d{0,4}))?$/;

/**
 * The library image `ref` names: `ID#N`, or `ID` for a task with one saved image; null when the
 * library has no such task.
 * @throws UsageError for a task with several images and no `#N`, or an image not saved.
 */
function libraryImage(
  deps: EditSourceDeps,
  ref: string,
): { path: string; parent: ImageParent } | null {
  const [, id = '', number] = REF.exec(ref.trim()) ?? [];
  const record = findTask(deps.history, id);
  if (!record) return null;
  const saved = record.images.filter((image) => image.state === 'saved' && image.file);
  const image =
    number === undefined
      ? saved.length === 1
        ? saved[0]
        : undefined
      : saved.find((one) => one.index === Number(number) - 1);
  if (number === undefined && saved.length > 1)
    throw new UsageError(
      `That task has ${saved.length} images: name one as ID#N (its Nth image, from 1).`,
    );
  if (!image?.file)
    throw new UsageError(
      'That image is not saved in the library (still coming, failed or deleted).',
    );
  return {
    path: deps.gallery.resolve(image.file),
    parent: { localId: record.localId, index: image.index },
  };
}

/** The bytes of a file the user named; null when there is none. @throws UsageError */
async function fileBytes(path: string, what: string): Promise<Buffer | null> {
  let real: string;
  try {
    real = await realpath(path);
  } catch (error) {
    if (systemErrorCode(error) === 'ENOENT' || systemErrorCode(error) === 'ENOTDIR') return null;
    throw error;
  }
  try {
    return await readRegularFile(dirname(real), real, MAX_INPUT_BYTES);
  } catch (error) {
    const code = systemErrorCode(error);
    if (code === 'EACCES' || code === 'EPERM' || code === 'EISDIR')
      throw new UsageError(`${what} cannot be read (permission denied, or not a file).`);
    if (error instanceof Error && code === undefined)
      throw new UsageError(`${what} is not a regular file of at most ${MAX_INPUT_BYTES} bytes.`);
    throw error;
  }
}

/** Refuses anything but a PNG, JPEG or WebP before the store sees it. */
function checkFormat(bytes: Uint8Array, what: string): void {
  if (sniffImage(bytes.subarray(0, 12)) === null)
    throw new UsageError(`${what} is not a PNG, JPEG or WebP file. Nothing was sent.`);
}

/**
 * The image `text` names, kept in the input store: a library image (with its parent), else a
 * file. `what` names it in a refusal ("The image", "A --ref image").
 * @throws UsageError when it is neither, or not an image Pictor takes.
 */
export async function readImage(
  deps: EditSourceDeps,
  text: string,
  what: string,
): Promise<ReadImage> {
  const library = libraryImage(deps, text);
  const bytes = library
    ? await readRegularFile(deps.gallery.root, library.path, MAX_INPUT_BYTES)
    : await fileBytes(text, what);
  if (bytes === null)
    throw new UsageError(`${what} is neither an image of the library (ID or ID#N) nor a file.`);
  checkFormat(bytes, what);
  const image = await deps.put(bytes);
  return library ? { image, parent: library.parent } : { image };
}

/** The most pixels a mask is read at to convert it (a 64-megapixel image, the inputs' bound). */
const MAX_MASK_PIXELS = 64 * 1024 * 1024;

/** The PNG colour types with an alpha channel (greyscale + alpha, RGBA). */
const ALPHA_COLOUR_TYPES: ReadonlySet<number> = new Set([4, 6]);
const PNG_SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

/**
 * A mask's convention from its PNG header: an alpha channel (colour type 4 or 6, or a palette's
 * transparency) is `alpha-edit`, else `white-edit`; null when it is not a PNG.
 */
export function maskConventionOf(bytes: Uint8Array): MaskConvention | null {
  if (bytes.length < 33 || !PNG_SIGNATURE.every((byte, i) => bytes[i] === byte)) return null;
  const colour = bytes[25] ?? 0;
  if (ALPHA_COLOUR_TYPES.has(colour)) return 'alpha-edit';
  return colour === 3 && hasTransparency(Buffer.from(bytes)) ? 'alpha-edit' : 'white-edit';
}

/** Whether a `tRNS` chunk comes before the first IDAT (at most 64 chunk headers read). */
function hasTransparency(png: Buffer): boolean {
  let at = 8;
  for (let seen = 0; seen < 64 && at + 8 <= png.length; seen += 1) {
    const type = png.toString('latin1', at + 4, at + 8);
    if (type === 'tRNS') return true;
    if (type === 'IDAT' || type === 'IEND') return false;
    at += 12 + png.readUInt32BE(at);
  }
  return false;
}

/**
 * --mask: a PNG file at `source`'s exact size, kept in the store, its convention, and the same
 * mask in the other convention (shared/domain/mask-png.ts, as the window's mask editor makes both),
 * so a model that reads the other one gets it converted, at any bit depth, interlaced or not; null
 * when its pixels cannot be read (damaged) or it edits nothing, and then only the given one goes.
 * @throws UsageError for a missing file, another format, or another size.
 */
export async function readMask(
  deps: EditSourceDeps,
  path: string,
  source: InputImage,
): Promise<{ image: InputImage; convention: MaskConvention; other: InputImage | null }> {
  const bytes = await fileBytes(path, 'The --mask file');
  if (bytes === null) throw new UsageError('The --mask file does not exist.');
  const convention = maskConventionOf(bytes);
  if (convention === null)
    throw new UsageError(
      'The --mask file is not a PNG (a mask is a PNG at the image’s size). Nothing was sent.',
    );
  const image = await deps.put(bytes);
  if (image.width !== source.width || image.height !== source.height)
    throw new UsageError(
      `The mask is ${image.width}x${image.height}, but the image is ${source.width}x${source.height}: a mask must be the image’s exact size. Nothing was sent.`,
    );
  const read = await otherConvention(bytes);
  // The pixels tell the convention (an opaque RGBA mask paints in white), else the header does.
  const other = read ? await deps.put(read.other) : null;
  return { image, convention: read?.convention ?? convention, other };
}

/**
 * The convention the mask's pixels are in (any transparency: alpha-edit; none: white-edit) and
 * the mask in the other one, or null when its pixels cannot be read here or it edits nothing.
 */
async function otherConvention(
  bytes: Uint8Array,
): Promise<{ convention: MaskConvention; other: Uint8Array } | null> {
  let pixels;
  try {
    pixels = decodePng(bytes, MAX_MASK_PIXELS);
  } catch (error) {
    if (error instanceof PngUnsupportedError || error instanceof PngDamagedError) return null;
    throw error;
  }
  const deflate = (raw: Uint8Array) => Promise.resolve(new Uint8Array(deflateSync(raw)));
  const pngs = await maskPngs(maskCoverage(pixels.rgba), pixels.width, pixels.height, deflate);
  // A mask that edits nothing has no other convention to send; the service says so.
  if (pngs === null) return null;
  const transparent = pixels.rgba.some((value, at) => at % 4 === 3 && value < 255);
  return transparent
    ? { convention: 'alpha-edit', other: pngs.white }
    : { convention: 'white-edit', other: pngs.alpha };
}
