/**
 * The streamed body of a submit with inline images (core/inputs/inline-body.ts): for every size
 * around a piece's edge (base64 groups of 3 bytes, pieces of 192 KiB) and both inline transports,
 * the bytes are those of the body built whole, and the length said before a byte was read is
 * theirs. A text that looks like a placeholder but is not this send's (a prompt, another nonce)
 * stays text.
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { InlineImages } from '../../../../electron/core/inputs/inline-body';
import { InputStore } from '../../../../electron/core/inputs/input-store';
import type { InputImage } from '../../../../shared/domain/image-inputs';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

const PIECE = 3 * 64 * 1024;
const SIZES = [1, 2, 3, 4, 5, PIECE - 1, PIECE, PIECE + 1, 2 * PIECE + 2];
const TRANSPORTS = [
  { kind: 'inline-base64', maxBytes: 1 << 30 },
  { kind: 'data-uri', maxBytes: 1 << 30 },
] as const;

let folder: string;
let store: InputStore;

beforeEach(async () => {
  folder = await tempFolder('inline-body');
  await mkdir(join(folder, 'inputs'));
  store = new InputStore({ root: folder });
});
afterEach(() => removeFolder(folder));

/** Bytes of `size` kept under their digest as the store names them (their format not read). */
async function kept(size: number, seed: number): Promise<{ image: InputImage; bytes: Buffer }> {
  const bytes = Buffer.alloc(size);
  for (let index = 0; index < size; index += 1) bytes[index] = (index * 31 + seed) & 0xff;
  const sha256 = createHash('sha256').update(bytes).digest('hex');
  const image: InputImage = { sha256, mime: 'image/png', width: 1, height: 1, bytes: size };
  await writeFile(join(folder, ...store.relativePath(image).split('/')), bytes);
  return { image, bytes };
}

describe('InlineImages', () => {
  for (const transport of TRANSPORTS) {
    it(`gives the whole body's bytes and length for every size (${transport.kind})`, async () => {
      for (const size of SIZES) {
        const first = await kept(size, 1);
        const second = await kept(size + 7, 2);
        const inline = new InlineImages(store);
        const text = (one: { bytes: Buffer }) =>
          (transport.kind === 'data-uri' ? 'data:image/png;base64,' : '') +
          one.bytes.toString('base64');
        const request = (a: string, b: string) =>
          JSON.stringify({
            prompt: 'pictor-inline-00000000000000000000000000000000-0 ünïcode',
            image: a,
            references: [b, a],
          });
        const body = inline.body(
          request(inline.add(transport, first.image), inline.add(transport, second.image)),
        );
        const whole = Buffer.from(request(text(first), text(second)));
        const sent = Buffer.from(await new Response(body.open()).arrayBuffer());
        expect(body.length, `length of ${size} bytes`).toBe(whole.length);
        expect(sent.equals(whole), `bytes of ${size}`).toBe(true);
        await inline.handedOff;
      }
    });
  }
});
