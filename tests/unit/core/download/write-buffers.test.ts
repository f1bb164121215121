/**
 * A download's body gathered in a kept write buffer (core/download/write-buffers.ts) and written a
 * buffer at a time: the file or the sink gets exactly the body's bytes, a buffer used for one body
 * and then another never carries the first's bytes into the second, at most a few are kept, and
 * a disk that takes part of a write or none of it leaves no short file that looks whole.
 */
import { randomBytes } from 'node:crypto';
import { readFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { AttemptAbort } from '../../../../electron/core/download/attempt-abort';
import { bodyToFile } from '../../../../electron/core/download/body-to-file';
import { WriteBuffers, writeAll } from '../../../../electron/core/download/write-buffers';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

/** Bytes that sniff as a PNG: its signature, then `length` random bytes. */
const pngLike = (length: number): Buffer => Buffer.concat([PNG_SIGNATURE, randomBytes(length)]);

/** A response whose body arrives in chunks of `chunk` bytes, as a socket gives them. */
function answer(bytes: Buffer, chunk = 16 * 1024): Response {
  let at = 0;
  const body = new ReadableStream<Uint8Array>({
    pull(controller) {
      if (at >= bytes.length) return controller.close();
      controller.enqueue(new Uint8Array(bytes.subarray(at, at + chunk)));
      at += chunk;
    },
  });
  return new Response(body, { status: 200 });
}

/** A sink that keeps a copy of each piece it is given (a sink copies what it keeps). */
function recordingSink() {
  const pieces: Buffer[] = [];
  return {
    pieces,
    write(piece: Uint8Array): Promise<void> {
      pieces.push(Buffer.from(piece));
      return Promise.resolve();
    },
  };
}

let dir: string;
const aborts: AttemptAbort[] = [];
beforeEach(async () => {
  dir = await tempFolder('gallery');
});
afterEach(async () => {
  for (const abort of aborts.splice(0)) abort.dispose();
  await removeFolder(dir);
});

function limits(buffers: WriteBuffers, sink?: ReturnType<typeof recordingSink>) {
  const abort = new AttemptAbort(10_000);
  aborts.push(abort);
  return { maxBytes: 64 * 1024 * 1024, abort, buffers, ...(sink ? { sink } : {}) };
}

describe('a body written through a kept buffer', () => {
  it('writes the body a buffer at a time, to its file or to the sink that takes it', async () => {
    const buffers = new WriteBuffers(64 * 1024, 2);
    const bytes = pngLike(300 * 1024);
    const path = join(dir, 'a.part');
    const result = await bodyToFile(answer(bytes, 5000), path, limits(buffers));
    expect(result).toEqual({ ok: true, kind: 'png', bytes: bytes.length });
    expect((await readFile(path)).equals(bytes)).toBe(true);
    const sink = recordingSink();
    const taken = join(dir, 'b.part');
    expect(await bodyToFile(answer(bytes, 5000), taken, limits(buffers, sink))).toEqual(result);
    expect(Buffer.concat(sink.pieces).equals(bytes)).toBe(true);
    await expect(readFile(taken)).rejects.toMatchObject({ code: 'ENOENT' });
    // Full buffers but the last: 300 KiB and 8 bytes in 64 KiB writes, not 62 chunks' worth.
    const sizes = sink.pieces.map((piece) => piece.length);
    expect(sizes).toEqual([65536, 65536, 65536, 65536, bytes.length - 4 * 65536]);
    expect(buffers.keptCount).toBe(1);
  });

  it('never carries bytes of one body into the next body given the same buffer', async () => {
    const buffers = new WriteBuffers(64 * 1024, 1);
    const taken: Buffer[] = [];
    const take = buffers.take.bind(buffers);
    buffers.take = () => {
      const buffer = take();
      taken.push(buffer);
      return buffer;
    };
    const first = pngLike(200 * 1024 + 123);
    const second = pngLike(1000);
    await bodyToFile(answer(first), join(dir, 'first.part'), limits(buffers, recordingSink()));
    const path = join(dir, 'second.part');
    const result = await bodyToFile(answer(second), path, limits(buffers));
    expect(taken[1]).toBe(taken[0]);
    expect(result).toEqual({ ok: true, kind: 'png', bytes: second.length });
    expect((await readFile(path)).equals(second)).toBe(true);
  });

  it('gives the buffer back when a body is refused, and keeps no more than its few', async () => {
    const buffers = new WriteBuffers(64 * 1024, 2);
    const small = { ...limits(buffers), maxBytes: 100 * 1024 };
    const refused = await bodyToFile(answer(pngLike(200 * 1024)), join(dir, 'big.part'), small);
    expect(refused.ok).toBe(false);
    expect(buffers.keptCount).toBe(1);
    const held = [buffers.take(), buffers.take(), buffers.take()];
    for (const buffer of held) buffers.give(buffer);
    buffers.give(held[0]!);
    expect(buffers.keptCount).toBe(2);
  });
});

describe('writeAll', () => {
  /** A file that takes at most `most` bytes a write, and none once it holds `room`. */
  function shortFile(most: number, room: number) {
    const written: Buffer[] = [];
    let held = 0;
    return {
      written,
      write(buffer: Uint8Array, offset: number, length: number) {
        const took = Math.min(most, length, room - held);
        written.push(Buffer.from(buffer.subarray(offset, offset + took)));
        held += took;
        return Promise.resolve({ bytesWritten: took });
      },
    };
  }

  it('goes on where a write that took part of the bytes stopped', async () => {
    const file = shortFile(1000, Infinity);
    const bytes = randomBytes(4500);
    await writeAll(file, bytes);
    expect(Buffer.concat(file.written).equals(bytes)).toBe(true);
  });

  it('fails as a full disk when a write takes nothing', async () => {
    const file = shortFile(1000, 2500);
    await expect(writeAll(file, randomBytes(4500))).rejects.toMatchObject({ code: 'ENOSPC' });
  });
});
