/**
 * Keeps each saved image's XMP sidecar equal to its record's triage, whenever the task's
 * `pictor.json` is written (Gallery.writeSidecar) and on a triage edit, which writes only these
 * (Gallery.writeTriage): the image file itself is never touched. The sidecar holds the image's
 * whole triage (xmp-own-triage.ts): `pictor.json` holds none of a saved image's.
 *
 * The sidecar is `image-<n>.xmp` beside the image (its name with `.xmp`; gallery-layout.ts). For
 * an image whose record names one (`xmpFile`: Content Credentials, Pictor's packet beside the
 * signed file), the triage goes into that packet, made again from the record, as it is when the
 * packet names another task id than the record (a kept key-carrying id redacted since: the packet
 * must not keep the key). For any other image
 * it is a packet of the triage alone (xmp-triage.ts), there only while the image has any triage
 * (a rating, a flag, a star, tags, boards or a time of triage), and not named in the record: its path follows from the image's file (a restored
 * `image-1-restored-2.png` has `image-1-restored-2.xmp`), and the trash moves it with its image
 * (image-files.ts). A sidecar at that name that Pictor did not write is left as it is.
 */
import { lstat } from 'node:fs/promises';
import { basename, join } from 'node:path';
import type { ImageRecord, TaskRecord } from '../../../../shared/domain/task-record';
import type { Logger } from '../../../ports/logger';
import { errorCode, removeFile, UnsafeFileError, writeFileAtomic } from '../../fs';
import { xmpSidecarName } from '../gallery-layout';
import { provenanceOf } from './provenance';
import { readPacketProvenance } from './read';
import { buildXmpPacket, parseXmpPacket } from './xmp-packet';
import { readXmpSidecar } from './xmp-sidecar';
import {
  buildTriagePacket,
  hasTriageElements,
  isTriagePacket,
  sidecarTriageOf,
} from './xmp-triage';

/** What an image's sidecar should become: left as it is, written with these bytes, or removed. */
export type SidecarPlan =
  { readonly keep: true } | { readonly write: Buffer } | { readonly remove: true };

const KEEP: SidecarPlan = { keep: true };

/** The root-relative path of a saved image's XMP sidecar: its `xmpFile`, else `<file stem>.xmp`. */
export function xmpSidecarOf(image: ImageRecord): string | undefined {
  if (image.xmpFile !== undefined) return image.xmpFile;
  return image.file === undefined ? undefined : xmpSidecarName(image.file);
}

/** The Pictor version that wrote the packet `existing`, when it says so; else `fallback`. */
function versionOf(existing: string | null, fallback: string): string {
  const read = readPacketProvenance(existing);
  return read.ok && read.provenance.appVersion !== '' ? read.provenance.appVersion : fallback;
}

/**
 * What image `image` of `record` needs in its sidecar, given what the file holds now (`existing`,
 * null when there is none). `appVersion` names Pictor in a packet made again when the packet
 * there does not say which version wrote it.
 */
export function sidecarPlan(
  record: TaskRecord,
  image: ImageRecord,
  existing: string | null,
  appVersion: string,
): SidecarPlan {
  const triage = sidecarTriageOf(image);
  const fields = existing === null ? null : parseXmpPacket(existing);
  if (image.xmpFile !== undefined || fields !== null) {
    // Pictor's packet beside a signed image: made again only when the triage in it must change,
    // or when it names another task id than the record's (a kept id the key was redacted from:
    // the packet must not keep the key, batch/kept-key-id.ts).
    const otherId = fields !== null && (fields.taskId ?? null) !== record.taskId;
    if (!triage && !otherId && (existing === null || !hasTriageElements(existing))) return KEEP;
    const provenance = provenanceOf(record, image.index, versionOf(existing, appVersion));
    const packet = buildXmpPacket({ ...provenance, triage });
    return packet ? { write: packet } : KEEP;
  }
  // Someone else's sidecar at the name: never overwritten, never removed.
  if (existing !== null && !isTriagePacket(existing)) return KEEP;
  if (triage) return { write: buildTriagePacket(triage) };
  return existing === null ? KEEP : { remove: true };
}

/** The sidecar's text at `path`, or null when there is no file there. */
export async function readSidecarIfAny(root: string, path: string): Promise<string | null> {
  try {
    return await readXmpSidecar(root, path);
  } catch (error) {
    if (errorCode(error) === 'ENOENT') return null;
    throw error;
  }
}

async function exists(path: string): Promise<boolean> {
  return lstat(path).then(
    () => true,
    () => false,
  );
}

async function syncOne(
  record: TaskRecord,
  image: ImageRecord,
  path: string,
  options: { readonly root: string; readonly appVersion: string },
): Promise<boolean> {
  const existing = await readSidecarIfAny(options.root, path);
  const plan = sidecarPlan(record, image, existing, options.appVersion);
  if ('write' in plan) {
    if (existing !== null && Buffer.from(existing, 'utf8').equals(plan.write)) return true;
    // A delete may have moved the image meanwhile: no sidecar is left beside nothing.
    if (!(await exists(join(path, '..', basename(image.file ?? ''))))) return false;
    await writeFileAtomic(options.root, path, plan.write);
    return true;
  }
  if ('remove' in plan) await removeFile(options.root, path);
  // Left as it is: it holds the triage only when there is none (someone else's file is kept).
  return sidecarTriageOf(image) === null;
}

/**
 * Brings the XMP sidecar of every saved image of `record` in line with its triage
 * ({@link sidecarPlan}), in `folder` (absolute: the task's folder, or an import's staged copy of
 * it), each written atomically. An image whose sidecar cannot be read or written (a link at its
 * name, a full disk) is logged and left; the others go on. Never throws. Returns the indexes of
 * the saved images whose triage their sidecar does not hold (written, someone else's file there,
 * the image moved meanwhile): `pictor.json` keeps theirs (sidecar-triage.ts).
 */
export async function syncXmpSidecars(
  record: TaskRecord,
  folder: string,
  options: { readonly root: string; readonly appVersion: string; readonly logger: Logger },
): Promise<ReadonlySet<number>> {
  const unheld = new Set<number>();
  for (const image of record.images) {
    const sidecar = image.state === 'saved' ? xmpSidecarOf(image) : undefined;
    if (sidecar === undefined) continue;
    try {
      const held = await syncOne(record, image, join(folder, basename(sidecar)), options);
      if (!held) unheld.add(image.index);
    } catch (error) {
      unheld.add(image.index);
      options.logger.warn("An image's XMP sidecar could not be brought up to date.", {
        index: image.index,
        code: errorCode(error) ?? 'error',
        // A link or a FIFO at its name: not followed (regular-file.ts), and said so.
        ...(error instanceof UnsafeFileError ? { reason: error.reason } : {}),
      });
    }
  }
  return unheld;
}
