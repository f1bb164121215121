import { randomBytes } from 'node:crypto';
import { mkdir, open, symlink, truncate, writeFile, type FileHandle } from 'node:fs/promises';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { ImageJobSources } from '../../../../electron/core/images/image-job-sources';
import { ManualClock } from '../../../fakes/manual-clock';
import { fifoMaker, makeFifo, needing } from '../../../support/tools';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

const ORIGIN = 'pictor-app://images';
const FIFO = fifoMaker();
let dir: string;
let sources: ImageJobSources;

beforeEach(async () => {
  dir = await tempFolder('job-sources');
  sources = new ImageJobSources({ pageOrigin: ORIGIN });
});

afterEach(async () => {
  await removeFolder(dir);
});

const get = (token: string, method = 'GET', from = sources) =>
  from.serve(new Request(`http://job/${token}`, { method }));

const MIB = 1024 * 1024;

async function readAll(reader: ReadableStreamDefaultReader<Uint8Array>): Promise<Uint8Array[]> {
  const pieces: Uint8Array[] = [];
  for (let next = await reader.read(); !next.done; next = await reader.read()) {
    pieces.push(next.value);
  }
  return pieces;
}

/** A job's body read to its end (asked once more after its last piece), piece by piece. */
async function bodyPieces(token: string, from = sources): Promise<Uint8Array[]> {
  return readAll((await get(token, 'GET', from)).body!.getReader());
}

describe('ImageJobSources', () => {
  it('streams a registered file once, readable by the image page only, then forgets the token', async () => {
    const file = join(dir, 'a.png');
    const bytes = Buffer.alloc(3 * 1024 * 1024, 7);
    await writeFile(file, bytes);
    const { token } = sources.register({ kind: 'file', file });
    const response = await get(token);
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String(bytes.length));
    expect(response.headers.get('access-control-allow-origin')).toBe(ORIGIN);
    expect(response.headers.get('cache-control')).toBe('no-store');
    expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
    expect((await get(token)).status).toBe(404);
    expect(sources.size).toBe(0);
  });

  it('reads a job file at the gallery’s cap (64 MiB) in one read and hands it over whole, not copied', async () => {
    const file = join(dir, 'b.png');
    const bytes = Buffer.alloc(64 * MIB);
    for (let at = 0; at < bytes.length; at += 4096) bytes.writeUInt32LE(at, at);
    await writeFile(file, bytes);
    const pieces = await bodyPieces(sources.register({ kind: 'file', file }).token);
    expect(Buffer.concat(pieces).equals(bytes)).toBe(true);
    // One read, handed over as one piece: one stream step, the piece the very buffer read into,
    // that buffer the read's size.
    expect(pieces.map((piece) => piece.byteLength)).toEqual([64 * MIB]);
    expect(pieces.map((piece) => piece.buffer.byteLength)).toEqual([64 * MIB]);
  });

  it('reads a burst of job files into the same buffer, each read whole and lent again once its job is answered after its body ended', async () => {
    const files = await Promise.all(
      Array.from({ length: 8 }, async (_, n) => {
        const file = join(dir, `burst-${n}.png`);
        const bytes = randomBytes(7.6 * MIB);
        await writeFile(file, bytes);
        return { file, bytes };
      }),
    );
    const used = new Set<ArrayBufferLike>();
    for (const { file, bytes } of files) {
      const registered = sources.register({ kind: 'file', file });
      const pieces = await bodyPieces(registered.token);
      expect(Buffer.concat(pieces).equals(bytes)).toBe(true);
      // An image of 8 MB (a 1,590² noise PNG) is one read: one stream step, one trip.
      expect(pieces.map((piece) => piece.byteLength)).toEqual([bytes.length]);
      for (const piece of pieces) used.add(piece.buffer);
      registered.answered();
    }
    // 8 images of 7.6 MiB: one 8 MiB buffer in all, not 8 fresh ones (64 MiB to collect).
    expect(used.size).toBe(1);
    expect(sources.readBufferCounters).toEqual({ kept: 1, keptBytes: 8 * MIB, made: 1 });
  });

  it('reads an image of any size in one read into one buffer, and two such jobs in flight read again into the same two', async () => {
    // Just over 8 MiB (a 1,632² noise PNG is 8.05 MiB), between two grains, just over 16 MiB, and
    // an upscaled 4096² photo.
    for (const size of [8 * MIB + 53_694, 11.3 * MIB, 16 * MIB + 1, 30.2 * MIB]) {
      const timed = new ImageJobSources({ pageOrigin: ORIGIN });
      const pairs = await Promise.all(
        [0, 1].map(async (n) => {
          const file = join(dir, `pair-${n}-${size}.png`);
          const bytes = randomBytes(Math.floor(size));
          await writeFile(file, bytes);
          return { file, bytes };
        }),
      );
      for (let round = 0; round < 4; round += 1) {
        const jobs = pairs.map(({ file }) => timed.register({ kind: 'file', file }));
        const bodies = await Promise.all(jobs.map(({ token }) => bodyPieces(token, timed)));
        bodies.forEach((pieces, n) => {
          expect(pieces.map((piece) => piece.byteLength)).toEqual([pairs[n]!.bytes.length]);
          expect(Buffer.concat(pieces).equals(pairs[n]!.bytes)).toBe(true);
        });
        for (const job of jobs) job.answered();
      }
      // Eight jobs, two at a time: two buffers in all, each the read's size rounded to a MiB.
      const each = Math.ceil(size / MIB) * MIB;
      expect(timed.readBufferCounters).toEqual({ kept: 2, keptBytes: 2 * each, made: 2 });
    }
  });

  it('lends nothing again that a reader may still hold: a job released unanswered, or answered before its body ended', async () => {
    const first = join(dir, 'first.png');
    const second = join(dir, 'second.png');
    const firstBytes = randomBytes(5 * MIB);
    const secondBytes = randomBytes(5 * MIB);
    await writeFile(first, firstBytes);
    await writeFile(second, secondBytes);
    // Timed out: released without an answer, its pieces still held by a reader.
    const timedOut = sources.register({ kind: 'file', file: first });
    const held = await bodyPieces(timedOut.token);
    timedOut.release();
    timedOut.answered();
    // Answered while its body was still being read (a page that gave up, or lies).
    const early = sources.register({ kind: 'file', file: second });
    const reader = (await get(early.token)).body!.getReader();
    const head = (await reader.read()).value!;
    early.answered();
    const rest = await readAll(reader);
    const later = await bodyPieces(sources.register({ kind: 'file', file: second }).token);
    const lent = new Set([...held, head, ...rest].map((piece) => piece.buffer));
    expect(later.some((piece) => lent.has(piece.buffer))).toBe(false);
    expect(Buffer.concat(held).equals(firstBytes)).toBe(true);
    expect(Buffer.concat([head, ...rest]).equals(secondBytes)).toBe(true);
    expect(Buffer.concat(later).equals(secondBytes)).toBe(true);
    expect(sources.readBufferCounters).toEqual({ kept: 0, keptBytes: 0, made: 3 });
  });

  it('pins no more of a body read and not yet answered than its share of what could be lent again: the rest is the garbage collector’s once read', async () => {
    // A compromised page reads a job to its end and answers late (up to the job's time limit).
    setFlagsFromString('--expose-gc');
    const gc = runInNewContext('gc') as () => void;
    const readUnanswered = async (name: string, bytes: number) => {
      const file = join(dir, name);
      await writeFile(file, '');
      await truncate(file, bytes);
      const job = sources.register({ kind: 'file', file });
      const reader = (await get(job.token)).body!.getReader();
      const reads: WeakRef<ArrayBufferLike>[] = [];
      for (let next = await reader.read(); !next.done; next = await reader.read()) {
        reads.push(new WeakRef(next.value.buffer));
      }
      await new Promise((resolve) => setImmediate(resolve));
      gc();
      return { job, reads, alive: reads.filter((read) => read.deref() !== undefined).length };
    };
    // At the gallery's cap (64 MiB): one read, past a job's share (32 MiB), not held: freed.
    const atCap = await readUnanswered('at-cap.png', 64 * MIB);
    expect({ reads: atCap.reads.length, alive: atCap.alive }).toEqual({ reads: 1, alive: 0 });
    atCap.job.answered();
    expect(sources.readBufferCounters).toEqual({ kept: 0, keptBytes: 0, made: 1 });
    // An upscaled photo (30 MiB): within its share, held for the next job and lent again.
    const upscaled = await readUnanswered('upscaled.png', 30 * MIB);
    expect({ reads: upscaled.reads.length, alive: upscaled.alive }).toEqual({ reads: 1, alive: 1 });
    upscaled.job.answered();
    expect(sources.readBufferCounters).toEqual({ kept: 1, keptBytes: 30 * MIB, made: 2 });
  });

  it('drops the kept read buffers after ten seconds with no job read', async () => {
    const clock = new ManualClock();
    const timed = new ImageJobSources({ pageOrigin: ORIGIN, clock });
    const file = join(dir, 'kept.png');
    await writeFile(file, randomBytes(MIB));
    const registered = timed.register({ kind: 'file', file });
    await bodyPieces(registered.token, timed);
    registered.answered();
    await clock.advance(9_999);
    expect(timed.readBufferCounters.kept).toBe(1);
    await clock.advance(1);
    expect(timed.readBufferCounters.kept).toBe(0);
  });

  it('never uses a piece’s memory again: a reader holding every piece until the end reads the file', async () => {
    // Electron reads a protocol body through Readable.fromWeb and holds a piece until its pipe
    // took it; another reader may hold all of them (Response.arrayBuffer does). A piece read
    // into a buffer used again for a later read would change under it.
    const file = join(dir, 'held.png');
    const bytes = randomBytes(20 * 1024 * 1024 + 123);
    await writeFile(file, bytes);
    const response = await get(sources.register({ kind: 'file', file }).token);
    const held: Buffer[] = [];
    for await (const piece of Readable.fromWeb(response.body as WebReadableStream<Uint8Array>)) {
      held.push(piece as Buffer);
    }
    expect(new Set(held.map((piece) => piece.buffer)).size).toBe(held.length);
    expect(Buffer.concat(held).equals(bytes)).toBe(true);
  });

  it('looks at a job file once: the one fstat of its open, inside a root or named alone', async () => {
    const file = join(dir, 'once.png');
    const bytes = randomBytes(64 * 1024);
    await writeFile(file, bytes);
    const probe = await open(file, 'r');
    const stat = vi.spyOn(Object.getPrototypeOf(probe) as FileHandle, 'stat');
    await probe.close();
    try {
      for (const root of [undefined, dir]) {
        stat.mockClear();
        const { token } = sources.register({ kind: 'file', file, ...(root ? { root } : {}) });
        const response = await get(token);
        expect(response.headers.get('content-length')).toBe(String(bytes.length));
        expect(Buffer.from(await response.arrayBuffer()).equals(bytes)).toBe(true);
        expect(stat, root ?? 'no root').toHaveBeenCalledTimes(1);
      }
    } finally {
      stat.mockRestore();
    }
  });

  it('answers only GET, and a method refused does not use the token up', async () => {
    const { token } = sources.register({ kind: 'bytes', bytes: new Uint8Array([1]), type: 'x/y' });
    expect((await get(token, 'POST')).status).toBe(405);
    expect((await get(token, 'HEAD')).status).toBe(405);
    expect((await get(token)).status).toBe(200);
  });

  it('refuses tokens it never gave, malformed ones and released ones', async () => {
    const registered = sources.register({ kind: 'bytes', bytes: new Uint8Array([1]), type: 'x/y' });
    registered.release();
    for (const token of [registered.token, 'a'.repeat(43), '..', '', `${'b'.repeat(42)}%`]) {
      expect((await get(token)).status).toBe(404);
    }
  });

  it.skipIf(!FIFO.path)(
    needing(FIFO, 'never serves through a link, a folder or a FIFO put where the file was'),
    async () => {
      const target = join(dir, 'secret.txt');
      await writeFile(target, 'secret');
      const link = join(dir, 'link.png');
      await symlink(target, link);
      const folder = join(dir, 'folder.png');
      await mkdir(folder);
      const fifo = join(dir, 'fifo.png');
      makeFifo(FIFO, fifo);
      // Named alone, and opened inside the folder as a gallery image is.
      for (const root of [undefined, dir]) {
        for (const file of [link, folder, fifo, join(dir, 'missing.png')]) {
          const { token } = sources.register({ kind: 'file', file, ...(root ? { root } : {}) });
          const response = await get(token);
          expect(response.status, `${file} in ${root ?? 'no root'}`).toBe(404);
          expect(await response.text()).not.toContain('secret');
        }
      }
    },
  );
});
