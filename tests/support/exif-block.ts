/** EXIF blocks for the image header tests (JPEG APP1 segments, PNG eXIf chunks). */
/**
 * An APP1 EXIF block (`Exif\0\0` and TIFF data) with IFD0 holding `entries` (tag, type, count,
 * value), in `order`. A PNG's eXIf chunk holds the TIFF data alone: `.subarray(6)`.
 */
export function exifBlock(
  entries: [number, number, number, number][],
  order: 'II' | 'MM' = 'II',
): Buffer {
  const little = order === 'II';
  const tiff = Buffer.alloc(8 + 2 + entries.length * 12 + 4);
  tiff.write(order, 0, 'latin1');
  const w16 = (v: number, at: number) =>
    little ? tiff.writeUInt16LE(v, at) : tiff.writeUInt16BE(v, at);
  const w32 = (v: number, at: number) =>
    little ? tiff.writeUInt32LE(v, at) : tiff.writeUInt32BE(v, at);
  w16(42, 2);
  w32(8, 4);
  w16(entries.length, 8);
  entries.forEach(([tag, type, count, value], i) => {
    const at = 10 + i * 12;
    w16(tag, at);
    w16(type, at + 2);
    w32(count, at + 4);
    w16(value, at + 8);
  });
  return Buffer.concat([Buffer.from('Exif\0\0', 'latin1'), tiff]);
}
