/**
 * Real PNGs as large as a test wants without decoding work: a small solid picture with a private
 * chunk of padding after its header (a reader skips it; its bytes are hashed, kept and sent as any
 * image's). For the suites that send the largest inputs the contract takes.
 */
import sharp from 'sharp';

function crc32(bytes: Buffer): number {
  let crc = ~0;
  for (const byte of bytes) {
    crc ^= byte;
    for (let bit = 0; bit < 8; bit += 1) crc = (crc >>> 1) ^ (0xedb88320 & -(crc & 1));
  }
  return ~crc >>> 0;
}

/** A PNG chunk: its length, type, data and CRC. */
function chunk(type: string, data: Buffer): Buffer {
  const length = Buffer.alloc(4);
  length.writeUInt32BE(data.length);
  const body = Buffer.concat([Buffer.from(type, 'latin1'), data]);
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(body));
  return Buffer.concat([length, body, crc]);
}

/** A square PNG of one shade. */
export function solidPng(side: number, shade: number): Promise<Buffer> {
  const background = { r: shade, g: shade, b: shade, alpha: 1 };
  return sharp({ create: { width: side, height: side, channels: 4, background } })
    .png()
    .toBuffer();
}

/** A square PNG of one shade, `padding` bytes (each `fill`) longer than it needs to be. */
export async function paddedPng(
  side: number,
  shade: number,
  padding: number,
  fill: number,
): Promise<Buffer> {
  const png = await solidPng(side, shade);
  // The signature (8 bytes) and IHDR (25): the padding goes right after them.
  const head = png.subarray(0, 33);
  return Buffer.concat([head, chunk('prVt', Buffer.alloc(padding, fill)), png.subarray(33)]);
}
