/**
 * Writers for the two icon containers the installers need, holding PNG-compressed images:
 * Windows ICO (PNG entries are valid since Vista) and Apple ICNS (PNG entries since 10.7).
 * Written here rather than with a converter because electron-builder's own converter is a
 * toolset it downloads at build time.
 */

/** One image to put in an ICO file: its square size in pixels and its PNG bytes. */
export interface IcoImage {
  readonly size: number;
  readonly png: Buffer;
}

/** The ICNS element types that hold PNG data, and the pixel size each must have. */
export const ICNS_TYPE_SIZES = {
  ic07: 128,
  ic08: 256,
  ic09: 512,
  ic10: 1024,
  ic11: 32,
  ic12: 64,
  ic13: 256,
  ic14: 512,
} as const;

/** An ICNS element type that holds a PNG. */
export type IcnsType = keyof typeof ICNS_TYPE_SIZES;

/** One image to put in an ICNS file. */
export interface IcnsImage {
  readonly type: IcnsType;
  readonly png: Buffer;
}

const ICO_HEADER_BYTES = 6;
const ICO_ENTRY_BYTES = 16;
const ICNS_HEADER_BYTES = 8;

/**
 * Builds an ICO file: ICONDIR (reserved 0, type 1 = icon, count), one 16-byte ICONDIRENTRY per
 * image, then the PNG data. A width or height of 256 is stored as 0, as the format requires.
 */
export function encodeIco(images: readonly IcoImage[]): Buffer {
  if (images.length === 0 || images.length > 0xffff) {
    throw new RangeError(`An ICO file holds 1 to 65535 images, not ${images.length}.`);
  }
  const header = Buffer.alloc(ICO_HEADER_BYTES + ICO_ENTRY_BYTES * images.length);
  header.writeUInt16LE(0, 0);
  header.writeUInt16LE(1, 2);
  header.writeUInt16LE(images.length, 4);
  let offset = header.length;
  images.forEach((image, index) => {
    if (!Number.isInteger(image.size) || image.size < 1 || image.size > 256) {
      throw new RangeError(`An ICO image is 1 to 256 pixels wide, not ${image.size}.`);
    }
    const at = ICO_HEADER_BYTES + ICO_ENTRY_BYTES * index;
    const side = image.size === 256 ? 0 : image.size;
    header.writeUInt8(side, at);
    header.writeUInt8(side, at + 1);
    header.writeUInt8(0, at + 2); // no palette
    header.writeUInt8(0, at + 3); // reserved
    header.writeUInt16LE(1, at + 4); // colour planes
    header.writeUInt16LE(32, at + 6); // bits per pixel
    header.writeUInt32LE(image.png.length, at + 8);
    header.writeUInt32LE(offset, at + 12);
    offset += image.png.length;
  });
  return Buffer.concat([header, ...images.map((image) => image.png)]);
}

/**
 * Builds an ICNS file: the 'icns' magic and the total length (big-endian), then one element per
 * image, each its four-character type, its length including this 8-byte header, and the PNG.
 */
export function encodeIcns(images: readonly IcnsImage[]): Buffer {
  if (images.length === 0) throw new RangeError('An ICNS file needs at least one image.');
  const elements = images.map((image) => {
    const head = Buffer.alloc(8);
    head.write(image.type, 0, 'latin1');
    head.writeUInt32BE(image.png.length + 8, 4);
    return Buffer.concat([head, image.png]);
  });
  const total = elements.reduce((sum, element) => sum + element.length, ICNS_HEADER_BYTES);
  const header = Buffer.alloc(ICNS_HEADER_BYTES);
  header.write('icns', 0, 'latin1');
  header.writeUInt32BE(total, 4);
  return Buffer.concat([header, ...elements]);
}
