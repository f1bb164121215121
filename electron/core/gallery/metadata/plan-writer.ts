/**
 * Writes an edit plan (container.ts): new bytes as they are, ranges of the original copied a
 * window at a time, so memory holds at most one window whatever the image's size.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { GALLERY_FILE_MODE } from '../../fs';
import type { EditPlan } from './container';
import { ContainerError } from './container';
import { WINDOW_BYTES } from './range-reader';

/** Writes `plan` into the new file `target` (it must not exist), copying from `source`, synced. */
export async function writePlan(source: FileHandle, plan: EditPlan, target: string): Promise<void> {
  const out = await open(target, 'wx', GALLERY_FILE_MODE);
  try {
    await writePlanInto(source, plan, out);
  } finally {
    await out.close();
  }
}

/** Writes `plan` into `out`, a new empty file the caller opened (and closes), then syncs it. */
export async function writePlanInto(
  source: FileHandle,
  plan: EditPlan,
  out: FileHandle,
): Promise<void> {
  const buffer = Buffer.allocUnsafe(WINDOW_BYTES);
  for (const piece of plan.pieces) {
    if ('bytes' in piece) {
      await out.write(piece.bytes);
      continue;
    }
    await copyRange(source, out, buffer, piece.copy);
  }
  await out.sync();
}

/** Copies `source`'s bytes `range.start` to `range.end` to `out` through `buffer`. */
async function copyRange(
  source: FileHandle,
  out: FileHandle,
  buffer: Buffer,
  range: { readonly start: number; readonly end: number },
): Promise<void> {
  for (let at = range.start; at < range.end;) {
    const length = Math.min(buffer.length, range.end - at);
    const { bytesRead } = await source.read(buffer, 0, length, at);
    if (bytesRead === 0) throw new ContainerError('The image file changed while it was read.');
    await out.write(buffer.subarray(0, bytesRead));
    at += bytesRead;
  }
}

/** The plan applied to bytes in memory (tests, small images): one new buffer. */
export function planToBuffer(source: Uint8Array, plan: EditPlan): Buffer {
  return Buffer.concat(
    plan.pieces.map((piece) =>
      'bytes' in piece ? piece.bytes : source.subarray(piece.copy.start, piece.copy.end),
    ),
    plan.length,
  );
}
