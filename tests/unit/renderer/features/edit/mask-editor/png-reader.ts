/**
 * A small PNG reader for the mask tests: checks the signature and every chunk's CRC-32, inflates
 * IDAT with Node's zlib, and undoes filter 0 (the only one the mask encoder writes; any other
 * filter fails the read). Only 8-bit grayscale and RGBA, the masks' two formats.
 */
import { crc32, inflateSync } from 'node:zlib';

export interface ReadPng {
  readonly width: number;
  readonly height: number;
  readonly bitDepth: number;
  readonly colourType: number;
  /** Unfiltered samples, row by row (1 or 4 bytes a pixel). */
  readonly samples: Uint8Array;
  /** The zlib stream's first two bytes (CMF, FLG). */
  readonly zlibHeader: readonly number[];
}

const SIGNATURE = [0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a];

export function readPng(bytes: Uint8Array): ReadPng {
  if (!SIGNATURE.every((byte, index) => bytes[index] === byte)) throw new Error('no signature');
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  let at = 8;
  let header: { width: number; height: number; bitDepth: number; colourType: number } | null = null;
  const data: Uint8Array[] = [];
  for (;;) {
    const length = view.getUint32(at);
    const type = String.fromCharCode(...bytes.subarray(at + 4, at + 8));
    const body = bytes.subarray(at + 8, at + 8 + length);
    if (crc32(bytes.subarray(at + 4, at + 8 + length)) !== view.getUint32(at + 8 + length)) {
      throw new Error(`bad CRC in ${type}`);
    }
    if (type === 'IHDR') {
      header = {
        width: view.getUint32(at + 8),
        height: view.getUint32(at + 12),
        bitDepth: body[8] ?? -1,
        colourType: body[9] ?? -1,
      };
    } else if (type === 'IDAT') data.push(body.slice());
    at += 12 + length;
    if (type === 'IEND') break;
  }
  if (!header) throw new Error('no IHDR');
  const stream = Buffer.concat(data);
  const raw = new Uint8Array(inflateSync(stream));
  const channels = header.colourType === 6 ? 4 : 1;
  const stride = header.width * channels;
  if (raw.length !== (stride + 1) * header.height) throw new Error('wrong data length');
  const samples = new Uint8Array(stride * header.height);
  for (let y = 0; y < header.height; y += 1) {
    if (raw[y * (stride + 1)] !== 0) throw new Error(`filter ${raw[y * (stride + 1)]} on row ${y}`);
    samples.set(raw.subarray(y * (stride + 1) + 1, (y + 1) * (stride + 1)), y * stride);
  }
  return { ...header, samples, zlibHeader: [stream[0] ?? -1, stream[1] ?? -1] };
}
