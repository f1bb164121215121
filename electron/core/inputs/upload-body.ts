/**
 * An upload's body streamed from the input store's file, as inline images' are (inline-body.ts):
 * the raw bytes of a signed PUT (fal's `upload_url`), or a multipart/form-data form whose file part
 * is the image (Replicate's files, DashScope's storage form, ComfyUI's `/upload/image`).
 *
 * Built whole, an upload held its image twice (the bytes read back, then the Blob or the form's
 * encoded copy) for as long as its request took, and the pinned transport made a third copy. Here
 * the image is read a piece at a time as the transport takes it; the form's text around it is made
 * up front, so the body's length is known before a byte is read and goes as its `Content-Length`.
 * Each request that sends it opens it again from the file.
 *
 * The store gives an image's last piece only once the whole file matched its digest
 * (InputStore.pieces): a file changed on disk since the send began stops the body before its end,
 * so the target never has a whole upload; the refusal is kept ({@link UploadBody.failure}) so the
 * upload fails with why, not as a network fault.
 */
import { randomBytes } from 'node:crypto';
import type { InputImage } from '../../../shared/domain/image-inputs';
import type { StreamedBody } from '../../ports/http';
import type { InputStore } from './input-store';

/** Image bytes read and handed to the transport at a time. */
const PIECE_BYTES = 256 * 1024;

/** Where an upload's image is read from: the store's pieces, each hashed on the way. */
export type ImageSource = Pick<InputStore, 'pieces'>;

/** A streamed upload body: its length, its type, and what stopped it, if anything did. */
export interface UploadBody extends StreamedBody {
  /** The body's Content-Type: the image's, or the form's with its boundary. */
  readonly contentType: string;
  /** What stopped a stream of it before its end (the store's refusal), if anything did. */
  readonly failure: unknown;
}

/**
 * A stream that reads `pieces` only when its reader asks: nothing is read ahead of the transport
 * (inline bodies' and uploads' alike).
 */
export function pulled(pieces: AsyncGenerator<Uint8Array>): ReadableStream<Uint8Array> {
  return new ReadableStream<Uint8Array>(
    {
      async pull(controller) {
        const next = await pieces.next();
        if (next.done === true) controller.close();
        else controller.enqueue(next.value);
      },
      async cancel() {
        await pieces.return(undefined);
      },
    },
    { highWaterMark: 0 },
  );
}

/** The text around an image in its body, and the body's type. */
interface Framing {
  readonly contentType: string;
  readonly before?: string;
  readonly after?: string;
}

/** A body of `before`, the image's bytes, then `after`. */
function bodyOf(
  source: ImageSource,
  image: InputImage,
  { contentType, before = '', after = '' }: Framing,
): UploadBody {
  let failure: unknown = undefined;
  async function* bytes(): AsyncGenerator<Uint8Array> {
    try {
      if (before !== '') yield Buffer.from(before, 'latin1');
      yield* source.pieces(image, PIECE_BYTES);
      if (after !== '') yield Buffer.from(after, 'latin1');
    } catch (error) {
      failure ??= error;
      throw error;
    }
  }
  return {
    length: before.length + image.bytes + after.length,
    contentType,
    get failure() {
      return failure;
    },
    open: () => pulled(bytes()),
  };
}

/** The image's own bytes, typed as the image (a signed PUT). */
export function imageBody(source: ImageSource, image: InputImage): UploadBody {
  return bodyOf(source, image, { contentType: image.mime });
}

/** A form's text field; names and values printable ASCII (the uploaders' schemas hold that). */
export type FormField = readonly [name: string, value: string];

/** The form's file part: its field name and the file name it is sent under. */
interface FormFile {
  readonly field: string;
  readonly fileName: string;
}

const PRINTABLE = /^[\x20-\x7e]*$/;

/**
 * A multipart/form-data form of `fields`, then the image as `file` (as `fetch` encodes a FormData:
 * CRLF lines, each part's disposition, the file's type). Its boundary is random and in none of the
 * values: a value cannot end its part early.
 * @throws TypeError for a name or value that is not printable ASCII or names holding a quote.
 */
export function formBody(
  source: ImageSource,
  image: InputImage,
  fields: readonly FormField[],
  file: FormFile,
): UploadBody {
  const texts = [...fields.flat(), file.field, file.fileName];
  if (!texts.every((text) => PRINTABLE.test(text))) {
    throw new TypeError('A form field that is not printable ASCII.');
  }
  const names = [...fields.map(([name]) => name), file.field, file.fileName];
  if (names.some((name) => name.includes('"') || name.includes('\\'))) {
    throw new TypeError('A form name holding a quote.');
  }
  let boundary: string;
  do boundary = `----pictor-${randomBytes(16).toString('hex')}`;
  while (texts.some((text) => text.includes(boundary)));
  const before = [
    ...fields.map(
      ([name, value]) =>
        `--${boundary}\r\nContent-Disposition: form-data; name="${name}"\r\n\r\n${value}\r\n`,
    ),
    `--${boundary}\r\nContent-Disposition: form-data; name="${file.field}"; ` +
      `filename="${file.fileName}"\r\nContent-Type: ${image.mime}\r\n\r\n`,
  ].join('');
  const after = `\r\n--${boundary}--\r\n`;
  const contentType = `multipart/form-data; boundary=${boundary}`;
  return bodyOf(source, image, { contentType, before, after });
}
