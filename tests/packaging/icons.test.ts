/**
 * The committed icons in resources/ (written by `npm run icons`): every file the installers use
 * exists, each PNG has its exact size, the ICO and ICNS containers are well-formed and each of
 * their images decodes to the size its directory declares, and the files match icon.svg.
 */
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { ICNS_TYPE_SIZES } from '../../electron/build/icon-containers';
import { ICO_SIZES, LINUX_SIZES, renderIcon } from '../../electron/build/make-icons';

const RESOURCES = path.resolve(
  path.dirname(fileURLToPath(import.meta.url)),
  '..',
  '..',
  'resources',
);
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

interface ContainedImage {
  readonly label: string;
  readonly declaredSize: number;
  readonly data: Buffer;
}

async function resource(relative: string): Promise<Buffer> {
  return readFile(path.join(RESOURCES, relative));
}

async function expectPng(data: Buffer, size: number, label: string): Promise<void> {
  expect(data.subarray(0, 8).equals(PNG_SIGNATURE), `${label} is a PNG`).toBe(true);
  const meta = await sharp(data).metadata();
  expect([meta.format, meta.width, meta.height], label).toEqual(['png', size, size]);
}

/** Reads an ICO directory, checking its header and that every entry lies inside the file. */
function readIco(file: Buffer): ContainedImage[] {
  expect(file.readUInt16LE(0)).toBe(0);
  expect(file.readUInt16LE(2)).toBe(1);
  const count = file.readUInt16LE(4);
  let expectedOffset = 6 + 16 * count;
  return Array.from({ length: count }, (_, index) => {
    const at = 6 + 16 * index;
    const width = file.readUInt8(at) || 256;
    expect(file.readUInt8(at + 1) || 256, 'square').toBe(width);
    expect([file.readUInt16LE(at + 4), file.readUInt16LE(at + 6)], 'planes, bits').toEqual([1, 32]);
    const length = file.readUInt32LE(at + 8);
    const offset = file.readUInt32LE(at + 12);
    expect(offset, 'entries follow one another').toBe(expectedOffset);
    expectedOffset = offset + length;
    expect(expectedOffset).toBeLessThanOrEqual(file.length);
    return {
      label: `ico ${width}`,
      declaredSize: width,
      data: file.subarray(offset, offset + length),
    };
  });
}

/** Reads the elements of an ICNS file, checking the magic and that the lengths add up. */
function readIcns(file: Buffer): Map<string, Buffer> {
  expect(file.toString('latin1', 0, 4)).toBe('icns');
  expect(file.readUInt32BE(4)).toBe(file.length);
  const elements = new Map<string, Buffer>();
  for (let at = 8; at < file.length;) {
    const type = file.toString('latin1', at, at + 4);
    const length = file.readUInt32BE(at + 4);
    expect(length).toBeGreaterThan(8);
    expect(at + length).toBeLessThanOrEqual(file.length);
    expect(elements.has(type), `${type} appears once`).toBe(false);
    elements.set(type, file.subarray(at + 8, at + length));
    at += length;
  }
  return elements;
}

/** Largest difference of any channel of any pixel between two PNGs of the same size. */
async function maxPixelDifference(a: Buffer, b: Buffer): Promise<number> {
  const [left, right] = await Promise.all(
    [a, b].map((png) => sharp(png).ensureAlpha().raw().toBuffer()),
  );
  let max = 0;
  for (let i = 0; i < left!.length; i += 1) max = Math.max(max, Math.abs(left![i]! - right![i]!));
  return max;
}

describe('resources/ icons', () => {
  it('has the 1024 px master PNG', async () => {
    await expectPng(await resource('icon.png'), 1024, 'icon.png');
  });

  it.each(LINUX_SIZES)('has the Linux icon icons/%ix%i.png at its exact size', async (size) => {
    await expectPng(await resource(`icons/${size}x${size}.png`), size, `${size}x${size}.png`);
  });

  it('has an ICO whose directory lists 16–256 px and whose every entry decodes to that size', async () => {
    const file = await resource('icon.ico');
    const images = readIco(file);
    expect(images.map((image) => image.declaredSize)).toEqual([...ICO_SIZES]);
    const last = images.at(-1)!;
    expect(last.data.byteOffset - file.byteOffset + last.data.length).toBe(file.length);
    for (const image of images) await expectPng(image.data, image.declaredSize, image.label);
  });

  it('has an ICNS with every PNG element macOS uses, each decoding to its type’s size', async () => {
    const elements = readIcns(await resource('icon.icns'));
    expect([...elements.keys()].sort()).toEqual(Object.keys(ICNS_TYPE_SIZES).sort());
    for (const [type, data] of elements) {
      await expectPng(data, ICNS_TYPE_SIZES[type as keyof typeof ICNS_TYPE_SIZES], type);
    }
  });

  it('has entitlements for the hardened runtime that grant only JIT', async () => {
    for (const name of ['entitlements.mac.plist', 'entitlements.mac.inherit.plist']) {
      const text = (await resource(name)).toString('utf8');
      const plist = text.replace(/<!--[\s\S]*?-->/g, '');
      expect([...plist.matchAll(/<key>([^<]+)<\/key>\s*<true\/>/g)].map((m) => m[1])).toEqual([
        'com.apple.security.cs.allow-jit',
      ]);
    }
  });

  it('matches icon.svg (run `npm run icons` after editing the SVG)', async () => {
    const svg = (await resource('icon.svg')).toString('utf8');
    const checks = [
      { file: 'icons/32x32.png', fresh: await renderIcon(svg, 32, 'tight') },
      { file: 'icons/256x256.png', fresh: await renderIcon(svg, 256, 'tight') },
      { file: 'icon.png', fresh: await renderIcon(svg, 1024, 'grid') },
    ];
    for (const { file, fresh } of checks) {
      // A little slack for a different libvips build; a changed drawing differs by far more.
      expect(await maxPixelDifference(await resource(file), fresh), file).toBeLessThanOrEqual(8);
    }
  });
});
