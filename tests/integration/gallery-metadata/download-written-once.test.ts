/**
 * A downloaded PNG with provenance is written to disk once: the bytes written to the gallery's
 * temp files for the image are the saved image's, not the body's and then the edited copy's
 * (counted on every file handle the download opens), and the saved file is the file edit's bytes
 * for real PNGs of the demo's own writer, small and large, whole or in small pieces.
 */
import type * as FsPromises from 'node:fs/promises';
import { readFile } from 'node:fs/promises';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { embedProvenanceInBuffer } from '../../../electron/core/gallery/metadata/embed';
import { provenanceOf } from '../../../electron/core/gallery/metadata/provenance';
import { encodePng } from '../../../electron/demo-service/png-codec';
import { makeRecord, serve, serveChunked, tempFiles } from '../../support/gallery-helpers';
import { galleryPerTest } from '../../support/gallery-per-test';

/** Bytes written through each file handle opened, by path (writes and gathered writes). */
const counted = vi.hoisted(() => ({ bytes: new Map<string, number>() }));
vi.mock('node:fs/promises', async (importOriginal) => {
  const fs = await importOriginal<typeof FsPromises>();
  const add = (path: string, bytes: number) =>
    counted.bytes.set(path, (counted.bytes.get(path) ?? 0) + bytes);
  const open: typeof fs.open = async (...args) => {
    const handle = await fs.open(...args);
    const path = String(args[0]);
    const write = handle.write.bind(handle) as (
      ...a: unknown[]
    ) => Promise<{ bytesWritten: number }>;
    const writev = handle.writev.bind(handle);
    return Object.assign(handle, {
      write: async (...a: unknown[]) => {
        const result = await write(...a);
        add(path, result.bytesWritten);
        return result;
      },
      writev: async (...a: Parameters<typeof writev>) => {
        const result = await writev(...a);
        add(path, result.bytesWritten);
        return result;
      },
    });
  };
  const patched = { ...fs, open };
  return { ...patched, default: patched };
});

const fixture = galleryPerTest({
  downloadTimeoutMs: 30_000,
  imageMetadata: { appVersion: '4.5.6' },
});

beforeEach(() => {
  counted.bytes.clear();
});
afterEach(async () => {
  expect(await tempFiles(fixture.root)).toEqual([]);
});

/** A PNG of the demo's writer: `width` × `height` of noise (it barely compresses). */
function noisePng(width: number, height: number): Buffer {
  const rgba = new Uint8Array(width * height * 4);
  let seed = width * 7919 + height;
  for (let i = 0; i < rgba.length; i += 1) {
    seed = (Math.imul(seed, 1103515245) + 12345) >>> 0;
    rgba[i] = seed >>> 24;
  }
  return encodePng({ width, height, rgba });
}

/** Bytes written to the gallery's temp files of the image (not its thumbnail's). */
function imageBytesWritten(): number {
  let sum = 0;
  for (const [path, bytes] of counted.bytes)
    if (path.includes('.pictor-tmp') && !path.endsWith('.thumb.part')) sum += bytes;
  return sum;
}

describe('a downloaded PNG with provenance', () => {
  it.each([
    ['small, whole', 64, 48, 0],
    ['small, 7 bytes at a time', 64, 48, 7],
    ['about 4 MB, whole', 1024, 1024, 0],
    ['about 4 MB, 60 KB at a time', 1024, 1024, 60_000],
  ])('is written once, byte for byte the file edit’s: %s', async (_name, width, height, piece) => {
    const body = noisePng(width, height);
    const route = `/once-${width}-${piece}.png`;
    const url = fixture.server.route(route, piece ? serveChunked(body, piece) : serve(body));
    const record = makeRecord([url]);
    const outcome = await fixture.intake.downloadImage(record, 0, fixture.server.baseUrl);
    if (outcome.state !== 'saved') throw new Error(JSON.stringify(outcome));
    const saved = await readFile(fixture.gallery.resolve(outcome.file));
    const edited = await embedProvenanceInBuffer(body, 'png', provenanceOf(record, 0, '4.5.6'));
    expect(saved.equals(edited)).toBe(true);
    expect(outcome.bytes).toBe(saved.length);
    expect(imageBytesWritten()).toBe(saved.length);
  });
});
