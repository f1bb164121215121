/**
 * The pre-count of a manifest store's boxes and assertions, before any verification: the signed
 * fixtures pass; a store past any of its named limits (assertions, boxes, depth, container parts)
 * is refused, in every container Pictor reads (PNG caBX, JPEG APP11 segments, WebP C2PA); and the
 * walk never throws on the hostile manifests or on random damage to a real store.
 */
import fc from 'fast-check';
import { describe, expect, it } from 'vitest';
import {
  MAX_STORE_ASSERTIONS,
  MAX_STORE_BOXES,
  MAX_STORE_DEPTH,
  storeExcess,
} from '../../../../electron/core/content-credentials/store-census';
import { MAX_CONTAINER_PARTS } from '../../../../electron/core/content-credentials/store-parts';
import {
  boxFilledStore,
  crowdedImage,
  crowdedStore,
  withJpegStore,
} from '../../../support/c2pa-crowded';
import {
  buildPng,
  c2paFixture,
  jpegStore,
  nestedJumbf,
  pngChunks,
  pngStore,
  withPngStore,
} from '../../../support/c2pa-hostile';
import { HOSTILE_MANIFESTS, SIGNED_FIXTURES } from '../../../support/c2pa-hostile-cases';

/** The signed fixtures carry two assertions (an action list and a data hash). */
const OWN_ASSERTIONS = 2;
const FORMATS = ['png', 'jpeg', 'webp'] as const;
const FORMAT_OF = { 'image/png': 'png', 'image/jpeg': 'jpeg', 'image/webp': 'webp' } as const;

describe('the pre-count of a manifest store', () => {
  it.each(SIGNED_FIXTURES)('passes a signed %s (%s)', (format, name) => {
    expect(storeExcess(c2paFixture(name), format)).toBeNull();
  });

  it.each(FORMATS)('refuses 8,000 assertions in a %s', (format) => {
    expect(storeExcess(crowdedImage(format, 8_000), format)).toBe('assertions');
  });

  it.each(FORMATS)('passes a %s at the assertion limit, refuses one past it', (format) => {
    const atLimit = MAX_STORE_ASSERTIONS - OWN_ASSERTIONS;
    expect(storeExcess(crowdedImage(format, atLimit), format)).toBeNull();
    expect(storeExcess(crowdedImage(format, atLimit + 1), format)).toBe('assertions');
  });

  it('refuses a store past the box limit that holds no extra assertion', () => {
    const png = c2paFixture('signed.png');
    const filled = (count: number) => withPngStore(png, boxFilledStore(pngStore(png), count));
    // The fixture's own boxes: 4 superboxes of manifests and stores, 4 assertion boxes, 4 more.
    expect(storeExcess(filled(MAX_STORE_BOXES - 20), 'png')).toBeNull();
    expect(storeExcess(filled(MAX_STORE_BOXES), 'png')).toBe('boxes');
  });

  it('refuses a store nested past the depth limit, and a JUMBF nested 50,000 deep', () => {
    const png = c2paFixture('signed.png');
    expect(storeExcess(withPngStore(png, nestedJumbf(MAX_STORE_DEPTH - 1)), 'png')).toBeNull();
    expect(storeExcess(withPngStore(png, nestedJumbf(MAX_STORE_DEPTH)), 'png')).toBe('depth');
    expect(storeExcess(withPngStore(png, nestedJumbf(50_000)), 'png')).toBe('depth');
  });

  it('counts every store of the image together (two caBX chunks of 600 assertions each)', () => {
    const png = c2paFixture('signed.png');
    const half = crowdedStore(pngStore(png), 600);
    const chunks = pngChunks(png);
    const at = chunks.findIndex((chunk) => chunk.type === 'caBX');
    chunks.splice(at, 1, { type: 'caBX', data: half }, { type: 'caBX', data: half });
    expect(storeExcess(buildPng(chunks), 'png')).toBe('assertions');
  });

  it('puts a JPEG store back together whatever the order of its segments', () => {
    const jpeg = c2paFixture('signed.jpg');
    const crowded = withJpegStore(jpeg, crowdedStore(jpegStore(jpeg).store, 8_000));
    const { start, end } = jpegStore(crowded);
    const segments: Buffer[] = [];
    for (let at = start; at < end; at += 2 + crowded.readUInt16BE(at + 2)) {
      segments.push(crowded.subarray(at, at + 2 + crowded.readUInt16BE(at + 2)));
    }
    expect(segments.length).toBeGreaterThan(5);
    const reordered = Buffer.concat([
      crowded.subarray(0, start),
      ...segments.reverse(),
      crowded.subarray(end),
    ]);
    expect(storeExcess(reordered, 'jpeg')).toBe('assertions');
  });

  it('refuses a container of more parts than any image has', () => {
    const png = c2paFixture('signed.png');
    const chunks = pngChunks(png);
    const empty = { type: 'tEXt', data: Buffer.alloc(0) };
    chunks.splice(1, 0, ...Array.from({ length: MAX_CONTAINER_PARTS }, () => empty));
    expect(storeExcess(buildPng(chunks), 'png')).toBe('parts');
  });

  it.each(HOSTILE_MANIFESTS)('answers on %s without throwing', (_, make, type) => {
    expect(() => storeExcess(make(), FORMAT_OF[type])).not.toThrow();
  });

  it('never throws on a real store damaged anywhere', () => {
    const png = c2paFixture('signed.png');
    const store = pngStore(crowdedImage('png', 50));
    fc.assert(
      fc.property(
        fc.array(fc.tuple(fc.nat(store.length - 1), fc.integer({ min: 0, max: 255 })), {
          minLength: 1,
          maxLength: 16,
        }),
        (changes) => {
          const damaged = Buffer.from(store);
          for (const [at, value] of changes) damaged[at] = value;
          const excess = storeExcess(withPngStore(png, damaged), 'png');
          expect(excess === null || typeof excess === 'string').toBe(true);
        },
      ),
      { numRuns: 300 },
    );
  });
});
