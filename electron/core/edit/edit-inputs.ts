/**
 * The images an edit is made of, as main takes them from the page: a file its own open dialog
 * chose, a library image by task and index, a mask the page painted (base64 PNG bytes), a smaller
 * copy of a stored input. Every one is checked from its bytes (the page's word is never taken for
 * a format or a size) and kept in the input store (core/inputs/input-store.ts) by its digest,
 * which is all the page gets back and all it may name later. A smaller copy is decoded and encoded
 * by the image engine (the sandboxed image renderer in the app), never in main.
 *
 * Each of these holds a whole image in main while it runs (up to 64 MiB: read, hashed, decoded from
 * base64), asked for by a request a few characters long; a compromised page asking for the address
 * of one large input 24 times at once had main read and hold it 24 times (2.8 GB). So at most
 * {@link WHOLE_IMAGES_AT_ONCE} run at once and the others wait their turn, holding nothing but
 * their request; a description is known once read, so those waiting for the same input find it.
 */
import { dirname } from 'node:path';
import {
  MAX_INPUT_BYTES,
  MAX_INPUT_SIDE,
  type ImageParent,
  type InputImage,
} from '../../../shared/domain/image-inputs';
import { sizeParam } from '../../../shared/i18n/dimensions';
import { sentence } from '../../../shared/i18n/sentence';
import type { ImageEngine } from '../../ports/image-engine';
import { limiter } from '../base';
import { UserFacingError } from '../errors';
import { readRegularFile } from '../fs';
import { findImage, type ImageFiles, type ImageRecords, savedFile } from '../gallery';
import { pngOfImage, sniffImage } from '../images';
import { boundedInputs, describeInput, type InputQuotaLimits, type InputStore } from '../inputs';
import { EditInputError, type StoredInputs } from './edit-plan';

/** The most pixels an input may have (the store's own limit). */
const MAX_PIXELS = MAX_INPUT_SIDE * MAX_INPUT_SIDE;
/** Longest base64 text of a mask: the largest input, encoded. */
const MAX_MASK_BASE64 = Math.ceil((MAX_INPUT_BYTES * 4) / 3) + 4;
const BASE64 = /^[A-Za-z0-9+/]*={0,2}$/;
const SHA256 = /^[0-9a-f]{64}$/;
/** Tries at a smaller side before a copy that must fit a byte limit is given up. */
const SHRINK_TRIES = 6;
/** The smallest side a smaller copy is made at. */
const MIN_SIDE = 16;

export interface EditInputsDeps {
  readonly store: Pick<InputStore, 'put' | 'read' | 'describe' | 'relativePath' | 'touch'>;
  readonly images: Pick<ImageEngine, 'toPng'>;
  /** The task records and the gallery's files, for a library image. */
  readonly records: Pick<ImageRecords, 'get'>;
  readonly gallery: ImageFiles;
}

/** Descriptions kept (an input's bytes never change under its digest: they are its name). */
const MAX_DESCRIBED = 256;

/** Operations holding a whole image that run at once: the mask editor's two masks, side by side. */
const WHOLE_IMAGES_AT_ONCE = 2;

const missing = () =>
  new EditInputError(sentence('error.edit.inputMissing'), { code: 'not_found' });

export class EditInputs implements StoredInputs {
  constructor(private readonly deps: EditInputsDeps) {}

  /**
   * What each digest was found to be, so a plan made again as the panel changes does not read and
   * hash every input each time. Sound because a description is a function of bytes whose digest
   * is the key; a file deleted since is found missing when the task is sent (the store reads and
   * hashes it again then).
   */
  private readonly described = new Map<string, InputImage>();

  /** Runs an operation that holds a whole image once fewer than WHOLE_IMAGES_AT_ONCE others do. */
  private readonly holding = limiter(WHOLE_IMAGES_AT_ONCE);

  /**
   * What the store holds under `sha256`, read from its bytes (hashed once), or null. The page names
   * an input it holds here (a plan, its address, a mask's source): its file is touched, so the
   * store's bound (input-quota.ts) never takes an input an edit still open uses.
   */
  async describe(sha256: string): Promise<InputImage | null> {
    if (!SHA256.test(sha256)) return null;
    if (this.described.has(sha256)) return this.describeHeld(sha256);
    return this.holding(() => this.describeHeld(sha256));
  }

  /** {@link describe} inside an operation that holds its turn already (never waits for another). */
  private async describeHeld(sha256: string): Promise<InputImage | null> {
    if (!SHA256.test(sha256)) return null;
    const known = this.described.get(sha256);
    const image =
      known ??
      (await this.deps.store.describe(sha256).catch((error: unknown) => {
        if (error instanceof UserFacingError) return null;
        throw error;
      }));
    if (!image) return null;
    if (!known) {
      if (this.described.size >= MAX_DESCRIBED) this.described.clear();
      this.described.set(sha256, image);
    }
    await this.deps.store.touch(image);
    return image;
  }

  /**
   * A file main's own open dialog chose, kept as an input. Its format is the store's to judge
   * (describeInput, the one reading of an input's bytes), so a file that is no image is refused
   * in one place with one sentence.
   * @throws EditInputError for a file that is no regular file or too large to read; the store's
   *   InputStoreError for one that is not a PNG, JPEG or WebP, or is damaged.
   */
  fromFile(path: string): Promise<InputImage> {
    return this.holding(() => this.fileHeld(path));
  }

  private async fileHeld(path: string): Promise<InputImage> {
    const bytes = await readRegularFile(dirname(path), path, MAX_INPUT_BYTES).catch(() => {
      throw new EditInputError(sentence('error.edit.fileUnreadable', { max: MAX_INPUT_BYTES }));
    });
    return this.deps.store.put(bytes);
  }

  /**
   * A library image (its task and index), read inside the gallery and kept as an input.
   * @throws GalleryImageError when there is no such saved image; EditInputError when its file
   *   cannot be read safely.
   */
  fromLibrary(ref: ImageParent): Promise<{ image: InputImage; parent: ImageParent }> {
    return this.holding(() => this.libraryHeld(ref));
  }

  private async libraryHeld(ref: ImageParent): Promise<{ image: InputImage; parent: ImageParent }> {
    const { deps } = this;
    const file = savedFile(deps.gallery, findImage(deps.records, ref).image);
    const bytes = await readRegularFile(deps.gallery.root, file, MAX_INPUT_BYTES).catch(() => {
      throw new EditInputError(sentence('error.edit.fileUnreadable', { max: MAX_INPUT_BYTES }));
    });
    return {
      image: await deps.store.put(bytes),
      parent: { localId: ref.localId, index: ref.index },
    };
  }

  /**
   * A mask the page painted or imported: base64 of a PNG at the exact size of `source` (a stored
   * input), kept as an input. Checked before anything is stored, and long before anything is sent.
   * @throws EditInputError (not PNG, another size, the source not stored).
   */
  putMask(source: string, base64: string): Promise<InputImage> {
    return this.holding(() => this.maskHeld(source, base64));
  }

  private async maskHeld(source: string, base64: string): Promise<InputImage> {
    if (base64.length > MAX_MASK_BASE64 || !BASE64.test(base64)) {
      throw new EditInputError(sentence('error.edit.maskNotPng'));
    }
    const bytes = Buffer.from(base64, 'base64');
    if (sniffImage(bytes.subarray(0, 12)) !== 'png') {
      throw new EditInputError(sentence('error.edit.maskNotPng'));
    }
    const mask = await describeInput(bytes).catch(() => {
      throw new EditInputError(sentence('error.edit.maskNotPng'));
    });
    const stored = await this.describeHeld(source);
    if (!stored) throw missing();
    if (mask.width !== stored.width || mask.height !== stored.height) {
      throw new EditInputError(
        sentence('error.edit.maskSize', {
          maskSize: sizeParam(mask.width, mask.height),
          size: sizeParam(stored.width, stored.height),
        }),
      );
    }
    return this.deps.store.put(bytes);
  }

  /**
   * A smaller PNG copy of a stored input that fits inside `maxSide` on each side and, when given,
   * in `maxBytes` (made smaller again until it does), kept as an input.
   * @throws EditInputError (not stored, not convertible, cannot fit).
   */
  downscale(sha256: string, maxSide: number, maxBytes?: number): Promise<InputImage> {
    return this.holding(() => this.smallerHeld(sha256, maxSide, maxBytes));
  }

  private async smallerHeld(
    sha256: string,
    maxSide: number,
    maxBytes?: number,
  ): Promise<InputImage> {
    // Described first: the source is touched, as every input the page names (describe).
    const source = await this.describeHeld(sha256);
    if (!source) throw missing();
    const bytes = await this.deps.store.read(source).catch(() => {
      throw missing();
    });
    let side = Math.max(MIN_SIDE, Math.min(maxSide, MAX_INPUT_SIDE));
    for (let tries = 0; tries < SHRINK_TRIES; tries += 1) {
      const png = await this.smaller(bytes, side);
      if (maxBytes === undefined || png.length <= maxBytes) return this.deps.store.put(png);
      if (side === MIN_SIDE) break;
      // The bytes of a picture grow about with its area: the side by the square root, and a margin.
      side = Math.max(MIN_SIDE, Math.floor(side * Math.sqrt(maxBytes / png.length) * 0.9));
    }
    throw new EditInputError(
      sentence('error.edit.cannotFit', { side, bytes: maxBytes ?? MAX_INPUT_BYTES }),
    );
  }

  /** Where the gallery protocol serves a stored input, relative to the gallery root. */
  async relativePath(sha256: string): Promise<string> {
    const image = await this.describe(sha256);
    if (!image) throw missing();
    return this.deps.store.relativePath(image);
  }

  private async smaller(bytes: Uint8Array, side: number): Promise<Uint8Array> {
    try {
      return await pngOfImage(bytes, this.deps.images, { maxPixels: MAX_PIXELS, maxSide: side });
    } catch (error) {
      throw new EditInputError(sentence('error.edit.downscaleFailed'), {
        detail: error instanceof Error ? error.message.slice(0, 200) : undefined,
      });
    }
  }
}

/** What the core makes the page's inputs of (pictor-core.ts): its parts and its options. */
interface EditInputsParts {
  readonly inputs: InputStore;
  readonly engine: EditInputsDeps['records'];
  readonly gallery: EditInputsDeps['gallery'];
  readonly history: { readonly lineage: { inputDigests(): ReadonlySet<string> | null } };
  readonly imageEngine: EditInputsDeps['images'];
  readonly clock: { now(): number };
  readonly inputQuota?: InputQuotaLimits;
}

/**
 * The images an edit is made of, in the core's one input store (it follows the library); what the
 * page adds there is bounded by the inputs no task names (core/inputs/input-quota.ts).
 */
export function editInputsOf(parts: EditInputsParts): EditInputs {
  const { inputs, gallery, history, clock } = parts;
  const store = boundedInputs(inputs, {
    library: gallery,
    named: () => history.lineage.inputDigests(),
    now: () => clock.now(),
    ...(parts.inputQuota ? { limits: parts.inputQuota } : {}),
  });
  return new EditInputs({ store, images: parts.imageEngine, records: parts.engine, gallery });
}
