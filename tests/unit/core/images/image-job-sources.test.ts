import { randomBytes } from 'node:crypto';
import { mkdir, mkdtemp, rm, symlink, writeFile } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ImageJobSources } from '../../../../electron/core/images/image-job-sources';
import { fifoMaker, makeFifo, needing } from '../../../support/tools';

const ORIGIN = 'pictor-app://images';
const FIFO = fifoMaker();
let dir: string;
let sources: ImageJobSources;

beforeEach(async () => {
  dir = await mkdtemp(join(tmpdir(), 'pictor-job-sources-'));
  sources = new ImageJobSources({ pageOrigin: ORIGIN });
});

afterEach(async () => {
  await rm(dir, { recursive: true, force: true });
});

const get = (token: string, method = 'GET') =>
  sources.serve(new Request(`http://job/${token}`, { method }));

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

  it('reads a job file a mebibyte at a time and hands each read over whole, none copied', async () => {
    const file = join(dir, 'b.png');
    const MIB = 1024 * 1024;
    const bytes = randomBytes(3.5 * MIB);
    await writeFile(file, bytes);
    const response = await get(sources.register({ kind: 'file', file }).token);
    const reader = response.body!.getReader();
    const pieces: Uint8Array[] = [];
    for (let next = await reader.read(); !next.done; next = await reader.read()) {
      pieces.push(next.value);
    }
    expect(Buffer.concat(pieces).equals(bytes)).toBe(true);
    // Four reads of the file (3.5 MiB a mebibyte at a time), each handed over as one piece: a
    // stream step per read, the piece the very buffer read into.
    expect(pieces.map((piece) => piece.byteLength)).toEqual([MIB, MIB, MIB, MIB / 2]);
    expect(new Set(pieces.map((piece) => piece.buffer)).size).toBe(4);
  });

  it('never uses a piece’s memory again: a reader holding every piece until the end reads the file', async () => {
    // Electron reads a protocol body through Readable.fromWeb and holds a piece until its pipe
    // took it; another reader may hold all of them (Response.arrayBuffer does). A piece read
    // into a buffer used again for a later read would change under it.
    const file = join(dir, 'held.png');
    const bytes = randomBytes(10 * 1024 * 1024 + 123);
    await writeFile(file, bytes);
    const response = await get(sources.register({ kind: 'file', file }).token);
    const held: Buffer[] = [];
    for await (const piece of Readable.fromWeb(response.body as WebReadableStream<Uint8Array>)) {
      held.push(piece as Buffer);
    }
    expect(new Set(held.map((piece) => piece.buffer)).size).toBe(held.length);
    expect(Buffer.concat(held).equals(bytes)).toBe(true);
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
      for (const file of [link, folder, fifo, join(dir, 'missing.png')]) {
        const { token } = sources.register({ kind: 'file', file });
        const response = await get(token);
        expect(response.status, file).toBe(404);
        expect(await response.text()).not.toContain('secret');
      }
    },
  );
});
