/**
 * A submit's body with its input images inline (bare base64, or a `data:` URI: input-route.ts),
 * streamed from the store's files as the transport takes it instead of built whole in memory.
 *
 * Built whole, the body held every image three times over (the bytes, their base64 text, the
 * request's JSON text) until the service answered: the transport keeps a body to follow a redirect,
 * and Node's fetch in manual redirect mode keeps a whole copy of it. Here the profile builds its
 * JSON as before, each image named by a placeholder (a random nonce per send, so no prompt or
 * parameter can spell one); the body is that text cut at the placeholders, each image read from
 * its file a piece at a time, hashed, and encoded as it is sent. Its length is known before a byte
 * is read (base64 is 4 characters per 3 bytes), so the transport can send it with its
 * `Content-Length`. A redirect followed opens the body again from the files.
 *
 * The store gives an image's last piece only once the whole file matched its digest
 * (InputStore.pieces): a file changed on disk since the send began stops the body before its end,
 * so the service never has a whole request; the refusal is kept ({@link InlineImages.failure}) to
 * say why the request failed.
 */
import { randomBytes } from 'node:crypto';
import type { InputImage } from '../../../shared/domain/image-inputs';
import type { StreamedBody } from '../../ports/http';
import type { InlineTransport } from './input-route';
import type { InputStore } from './input-store';
import { pulled } from './upload-body';

/**
 * Image bytes read, encoded and handed to the transport at a time: a multiple of 3, so each
 * piece's base64 ends on a whole group and joins the next's; 192 KiB of bytes, 256 KiB of text.
 */
const PIECE_BYTES = 3 * 64 * 1024;

interface InlineImage {
  readonly image: InputImage;
  /** Text before its base64: `data:<mime>;base64,`, or nothing. */
  readonly prefix: string;
}

/** The body's parts in order: JSON text, and the images between. */
type Part = string | InlineImage;

function encodedLength(part: Part): number {
  if (typeof part === 'string') return Buffer.byteLength(part);
  return part.prefix.length + 4 * Math.ceil(part.image.bytes / 3);
}

/** One send's inline images: the placeholders its request names them by, and the body made of them. */
export class InlineImages {
  readonly #nonce = randomBytes(16).toString('hex');
  readonly #images: InlineImage[] = [];
  #failure: unknown = undefined;
  #handedOff: () => void = () => undefined;
  /** Settles once a body made here gave its last byte to the transport. */
  readonly handedOff = new Promise<void>((done) => (this.#handedOff = done));

  constructor(private readonly store: Pick<InputStore, 'pieces'>) {}

  /** Whether an image was added (a body is to be made). */
  get any(): boolean {
    return this.#images.length > 0;
  }

  /** What stopped a body before its end (the store's refusal), if anything did. */
  get failure(): unknown {
    return this.#failure;
  }

  /** The text the request names `image` by until its body is made. */
  add(transport: InlineTransport, image: InputImage): string {
    const prefix = transport.kind === 'data-uri' ? `data:${image.mime};base64,` : '';
    const index = this.#images.push({ image, prefix }) - 1;
    return `pictor-inline-${this.#nonce}-${index}`;
  }

  /**
   * The body of `json` (the request's JSON text, images named by their placeholders): its length
   * now, its bytes as they are read.
   */
  body(json: string): StreamedBody {
    const parts: Part[] = [];
    let from = 0;
    for (const found of json.matchAll(new RegExp(`pictor-inline-${this.#nonce}-(\\d+)`, 'g'))) {
      const image = this.#images[Number(found[1])];
      if (!image) continue;
      parts.push(json.slice(from, found.index), image);
      from = found.index + found[0].length;
    }
    parts.push(json.slice(from));
    const length = parts.reduce((sum, part) => sum + encodedLength(part), 0);
    return { length, open: () => pulled(this.#bytes(parts)) };
  }

  async *#bytes(parts: readonly Part[]): AsyncGenerator<Uint8Array> {
    try {
      for (const part of parts) {
        if (typeof part !== 'string') yield* this.#image(part);
        else if (part !== '') yield Buffer.from(part);
      }
    } catch (error) {
      this.#failure ??= error;
      throw error;
    }
    this.#handedOff();
  }

  /** An image's text: its prefix, then its base64 a piece at a time. */
  async *#image(part: InlineImage): AsyncGenerator<Uint8Array> {
    if (part.prefix !== '') yield Buffer.from(part.prefix, 'latin1');
    for await (const piece of this.store.pieces(part.image, PIECE_BYTES)) {
      const bytes = Buffer.from(piece.buffer, piece.byteOffset, piece.byteLength);
      yield Buffer.from(bytes.toString('base64'), 'latin1');
    }
  }
}
