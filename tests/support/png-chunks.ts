/**
 * PNG chunk surgery for the image tests: a PNG's chunks, a PNG built from chunks (CRCs correct),
 * its zlib stream, and the same PNG with another stream. Real files made by sharp go in; the
 * damaged ones the tests need come out.
 */
import { crc32 } from 'node:zlib';

export interface Chunk {
  type: string;
  data: Buffer;
}

export function chunksOf(png: Buffer): Chunk[] {
  const chunks: Chunk[] = [];
  for (let offset = 8; offset < png.length;) {
    const length = png.readUInt32BE(offset);
    chunks.push({
      type: png.toString('latin1', offset + 4, offset + 8),
      data: png.subarray(offset + 8, offset + 8 + length),
    });
    offset += 12 + length;
  }
  return chunks;
}

export function build(chunks: Chunk[]): Buffer {
  const parts: Buffer[] = [Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a])];
  for (const { type, data } of chunks) {
    const head = Buffer.alloc(8);
    head.writeUInt32BE(data.length, 0);
    head.write(type, 4, 'latin1');
    const tail = Buffer.alloc(4);
    tail.writeUInt32BE(crc32(data, crc32(type)), 0);
    parts.push(head, data, tail);
  }
  return Buffer.concat(parts);
}

/** The PNG's whole zlib stream (its IDAT chunks' data joined). */
export function idatOf(png: Buffer): Buffer {
  return Buffer.concat(
    chunksOf(png)
      .filter((chunk) => chunk.type === 'IDAT')
      .map((chunk) => chunk.data),
  );
}

/** The PNG with its IDAT data replaced by `data` (CRCs correct). */
export function withIdat(png: Buffer, data: Buffer): Buffer {
  const chunks = chunksOf(png);
  const first = chunks.findIndex((chunk) => chunk.type === 'IDAT');
  const others = chunks.filter((chunk) => chunk.type !== 'IDAT');
  others.splice(first, 0, { type: 'IDAT', data });
  return build(others);
}
