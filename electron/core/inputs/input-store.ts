/**
 * The library's input images: files named by the SHA-256 of their bytes in the gallery folder's
 * `inputs/` (`inputs/<sha256>.<png|jpg|webp>`), so a task's `request.inputs` names its images
 * exactly, the same image is kept once, and the folder moves with the library. What comes in is
 * checked as every image is (its signature, its header's size, the pixel limit) before it is
 * written; what goes out is hashed again, so a file changed on disk is never sent in its place.
 *
 * The folder may have been crafted (an unpacked archive, another local user): nothing is written
 * through a link (atomic-file.ts, contained-fs.ts) and nothing is read through one (open-inside.ts).
 * What the page adds is bounded by the inputs no task names (input-quota.ts). Each one kept is
 * a user's change asked through the core's closing gate (core/base/closing-gate.ts): refused once
 * the core is closing, and waited for by the close when asked before.
 */
import { createHash } from 'node:crypto';
import { lutimes, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import {
  MAX_INPUT_BYTES,
  MAX_INPUT_SIDE,
  type InputImage,
  type InputMime,
} from '../../../shared/domain/image-inputs';
import { sentence, type Sentence } from '../../../shared/i18n/sentence';
import { ClosingGate } from '../base';
import { systemErrorCode, UserFacingError } from '../errors';
import {
  checkContained,
  ensureFolder,
  openRegularFile,
  readOpenedFile,
  TEMP_DIR,
  UnsafeFileError,
  UnsafePathError,
  writeFileAtomic,
} from '../fs';
import {
  checkHeaderOfBytes,
  IMAGE_EXTENSION,
  IMAGE_MIME,
  type ImageKind,
  sniffImage,
} from '../images';

/** The folder of input images, relative to the gallery root. */
export const INPUTS_DIR = 'inputs';

const KIND_OF_MIME: Readonly<Record<InputMime, ImageKind>> = {
  'image/png': 'png',
  'image/jpeg': 'jpeg',
  'image/webp': 'webp',
};

const SHA256 = /^[0-9a-f]{64}$/;

/** An input refused, or one the store cannot give back, in a sentence. */
export class InputStoreError extends UserFacingError {
  override readonly name = 'InputStoreError';
  constructor(said: Sentence, detail?: string) {
    super(said, { code: 'bad_input', ...(detail === undefined ? {} : { detail }) });
  }
}

/** Where the store lives: the gallery, whose root changes when the library moves. */
export interface InputStoreRoot {
  readonly root: string;
}

function digestOf(bytes: Uint8Array): string {
  return createHash('sha256').update(bytes).digest('hex');
}

function tooBig(): InputStoreError {
  return new InputStoreError(
    sentence('error.inputs.tooBig', { bytes: MAX_INPUT_BYTES, side: MAX_INPUT_SIDE }),
  );
}

/**
 * The header of `bytes` as an input image, or the sentence that refuses it: the one reading of an
 * input's format and size (the store's, the edit's masks'). `sha256`: the digest, when the caller
 * has just checked it (a stored file read back), so it is not hashed twice.
 */
export async function describeInput(bytes: Uint8Array, sha256?: string): Promise<InputImage> {
  if (bytes.length > MAX_INPUT_BYTES) throw tooBig();
  const kind = sniffImage(bytes.subarray(0, 12));
  if (kind === null) throw new InputStoreError(sentence('error.inputs.format'));
  const checked = await checkHeaderOfBytes(bytes, kind, MAX_INPUT_SIDE * MAX_INPUT_SIDE);
  if (!checked.ok) {
    if (checked.refusal.reason === 'too_many_pixels') throw tooBig();
    throw new InputStoreError(sentence('error.inputs.damaged'), checked.refusal.detail);
  }
  // The size as shown (EXIF orientation applied): the mask editor draws over what is shown.
  const width = checked.header.orientedWidth;
  const height = checked.header.orientedHeight;
  if (width > MAX_INPUT_SIDE || height > MAX_INPUT_SIDE) throw tooBig();
  const digest = sha256 ?? digestOf(bytes);
  return { sha256: digest, mime: IMAGE_MIME[kind], width, height, bytes: bytes.length };
}

const missing = () => new InputStoreError(sentence('error.inputs.missing'));
const tampered = () => new InputStoreError(sentence('error.inputs.tampered'));

/**
 * `image.bytes` bytes of `handle` in pieces, the last held back until they matched the digest.
 * @throws InputStoreError (`tampered`) for a file that shrank or does not match.
 */
async function* verifiedPieces(
  handle: FileHandle,
  image: InputImage,
  pieceBytes: number,
): AsyncGenerator<Uint8Array> {
  const hash = createHash('sha256');
  if (image.bytes <= 0) throw tampered();
  for (let position = 0; position < image.bytes;) {
    const piece = Buffer.allocUnsafe(Math.min(pieceBytes, image.bytes - position));
    for (let filled = 0; filled < piece.length;) {
      const { bytesRead } = await handle.read(piece, filled, piece.length - filled, position);
      if (bytesRead === 0) throw tampered();
      filled += bytesRead;
      position += bytesRead;
    }
    hash.update(piece);
    if (position === image.bytes && hash.digest('hex') !== image.sha256) throw tampered();
    yield piece;
  }
}

function unsafe(error: unknown): InputStoreError {
  return new InputStoreError(
    sentence('error.inputs.unsafe'),
    error instanceof Error ? error.message : undefined,
  );
}

/** A wanted image: a record's input, or a digest alone (its format is then looked for). */
export type InputRef = InputImage | string;

export class InputStore {
  constructor(
    private readonly library: InputStoreRoot,
    /** Lets each image kept in, or refuses it once the core is closing; default one never closed. */
    private readonly gate: ClosingGate = new ClosingGate(),
  ) {}

  /** The file of `image`, relative to the gallery root with `/` (the gallery protocol's path). */
  relativePath(image: Pick<InputImage, 'sha256' | 'mime'>): string {
    return `${INPUTS_DIR}/${image.sha256}.${IMAGE_EXTENSION[KIND_OF_MIME[image.mime]]}`;
  }

  /**
   * Keeps `bytes` as an input image and says what it is. The same bytes twice are one file (an
   * existing file that no longer matches its name is written again), its time touched: it was
   * named again (input-quota.ts keeps what was named lately). `admit`: asked before a new file is
   * written, and may refuse it (input-quota.ts).
   * @throws InputStoreError for bytes that are not a PNG, JPEG or WebP within the limits, or an
   *   `inputs/` folder that is a link or leads outside; `admit`'s; file-system errors (a full disk);
   *   "Pictor is closing" once the core is closing.
   */
  put(bytes: Uint8Array, admit?: (image: InputImage) => Promise<void>): Promise<InputImage> {
    return this.gate.ask(() => this.keep(bytes, admit));
  }

  /** {@link put}, let in by the gate. */
  private async keep(
    bytes: Uint8Array,
    admit?: (image: InputImage) => Promise<void>,
  ): Promise<InputImage> {
    const image = await describeInput(bytes);
    if (await this.holds(image)) {
      await this.touch(image);
      return image;
    }
    const root = this.library.root;
    try {
      await admit?.(image);
      await ensureFolder(root, join(root, INPUTS_DIR));
      await ensureFolder(root, join(root, TEMP_DIR));
      await writeFileAtomic(root, this.absolutePath(image), bytes, 0o644);
    } catch (error) {
      if (error instanceof UnsafePathError) throw unsafe(error);
      throw error;
    }
    return image;
  }

  /**
   * Touches the file of `image`: the page named it again (a put, a plan, an address asked for), so
   * input-quota.ts counts it in use. A file not there, or reached through a link, is left alone.
   */
  async touch(image: Pick<InputImage, 'sha256' | 'mime'>): Promise<void> {
    const path = this.absolutePath(image);
    const now = new Date();
    try {
      await checkContained(this.library.root, path);
      // lutimes: a link put in the file's place since is touched itself, never its target.
      await lutimes(path, now, now);
    } catch {
      // Nothing to touch: the file is gone, or is not the store's own.
    }
  }

  /**
   * The bytes of an input, hashed again: a file missing, changed since it was kept, or reached
   * through a link is refused.
   * @throws InputStoreError (`missing`, `tampered`, `unsafe`); file-system errors.
   */
  async read(wanted: InputRef): Promise<Buffer> {
    const found = await this.readVerified(wanted);
    if (found === 'missing') throw missing();
    if (found === 'tampered') throw tampered();
    return found;
  }

  /**
   * Checks that the store holds `image` intact, reading it a piece at a time (nothing held).
   * @throws InputStoreError (`missing`, `tampered`, `unsafe`); file-system errors.
   */
  async check(image: InputImage): Promise<void> {
    for await (const _piece of this.pieces(image, 1 << 20)) {
      // Hashed as it is read.
    }
  }

  /**
   * The bytes of `image` a piece at a time (`pieceBytes` each, the last shorter), hashed on the way:
   * the last piece is given only once the whole file matched its digest, so a file changed on disk
   * is never given whole, and nothing but one piece is held. Read from one opened handle of the
   * size the image says.
   * @throws InputStoreError (`missing`, `tampered`, `unsafe`) before the piece it concerns;
   *   file-system errors.
   */
  async *pieces(image: InputImage, pieceBytes: number): AsyncGenerator<Uint8Array> {
    let opened: Awaited<ReturnType<typeof openRegularFile>>;
    try {
      opened = await openRegularFile(this.library.root, this.absolutePath(image), MAX_INPUT_BYTES);
    } catch (error) {
      const code = systemErrorCode(error);
      if (code === 'ENOENT' || code === 'ENOTDIR') throw missing();
      if (error instanceof UnsafeFileError) throw unsafe(error);
      throw error;
    }
    const { handle, size } = opened;
    try {
      if (size !== image.bytes) throw tampered();
      yield* verifiedPieces(handle, image, pieceBytes);
    } finally {
      await handle.close();
    }
  }

  /**
   * What the store holds under `wanted`, read from its bytes (hashed once, on the way out); null
   * when it holds nothing intact under that digest, or what it holds is not an input any more.
   * @throws InputStoreError (`unsafe`); file-system errors.
   */
  async describe(wanted: InputRef): Promise<InputImage | null> {
    const found = await this.readVerified(wanted);
    if (!Buffer.isBuffer(found)) return null;
    const sha256 = typeof wanted === 'string' ? wanted : wanted.sha256;
    return describeInput(found, sha256).catch((error: unknown) => {
      if (error instanceof InputStoreError) return null;
      throw error;
    });
  }

  /** Whether the store holds `wanted` with its bytes intact. */
  async has(wanted: InputRef): Promise<boolean> {
    return Buffer.isBuffer(await this.readVerified(wanted).catch(() => 'missing'));
  }

  private async holds(image: InputImage): Promise<boolean> {
    return Buffer.isBuffer(await this.readOne(image.sha256, image.mime).catch(() => 'missing'));
  }

  private absolutePath(image: Pick<InputImage, 'sha256' | 'mime'>): string {
    return join(this.library.root, ...this.relativePath(image).split('/'));
  }

  private async readVerified(wanted: InputRef): Promise<Buffer | 'missing' | 'tampered'> {
    const sha256 = typeof wanted === 'string' ? wanted : wanted.sha256;
    if (!SHA256.test(sha256)) return 'missing';
    const mimes =
      typeof wanted === 'string' ? (Object.keys(KIND_OF_MIME) as InputMime[]) : [wanted.mime];
    let seen: 'missing' | 'tampered' = 'missing';
    for (const mime of mimes) {
      const found = await this.readOne(sha256, mime);
      if (Buffer.isBuffer(found)) return found;
      if (found === 'tampered') seen = found;
    }
    return seen;
  }

  private async readOne(sha256: string, mime: InputMime): Promise<Buffer | 'missing' | 'tampered'> {
    const root = this.library.root;
    let bytes: Buffer;
    try {
      const { handle, size } = await openRegularFile(
        root,
        this.absolutePath({ sha256, mime }),
        MAX_INPUT_BYTES,
      );
      try {
        bytes = await readOpenedFile(handle, size);
      } finally {
        await handle.close();
      }
    } catch (error) {
      const code = systemErrorCode(error);
      if (code === 'ENOENT' || code === 'ENOTDIR') return 'missing';
      if (error instanceof UnsafeFileError) throw unsafe(error);
      throw error;
    }
    return digestOf(bytes) === sha256 ? bytes : 'tampered';
  }
}
