/**
 * A saved image's bytes as a copy that leaves the library (an export's archive: library/archive/
 * export-scrub.ts) should carry them: with Pictor's packet made again from the record the copy
 * goes with, when the packet in the file names another task id than that record, or when that
 * record was changed from the one the file was made from (`remake`: a key the process holds
 * scrubbed out of it). A task kept under a key-carrying id keeps it in its images' own metadata
 * until the app's sweep rewrites them (batch/kept-key-id.ts); a copy made before must not carry
 * it. The file on disk is never touched; the packet is made as the download made it
 * (provenance.ts), naming the Pictor version its old packet names, with the image's triage.
 *
 * A file that holds no packet of Pictor's, or carries Content Credentials (Pictor's packet is the
 * XMP file beside it, never in the image), is given back as it is; so is one whose packet cannot
 * be read (a structure Pictor's embedder never wrote).
 */
import type { ImageRecord, TaskRecord } from '../../../../shared/domain/task-record';
import type { ImageKind } from '../../images';
import { detectC2paInBytes } from './c2pa-detect';
import { ContainerError } from './container';
import { embedProvenanceInBuffer } from './embed';
import { provenanceOf } from './provenance';
import { packetOf, readPacketProvenance } from './read';
import { bufferReader } from './range-reader';
import { parseXmpPacket } from './xmp-packet';
import { xmpTriageOf } from './xmp-triage';

/** What {@link copyWithRecordPacket} gives: the bytes to copy, or why none can be. */
type CopiedImage = { readonly bytes: Buffer } | { readonly refused: string };

/** Whether `bytes` carries Pictor's packet that must be made again (see the module comment). */
async function stalePacket(
  bytes: Buffer,
  kind: ImageKind,
  of: { readonly record: TaskRecord; readonly remake: boolean },
): Promise<string | null> {
  let packet: string | null;
  try {
    packet = await packetOf(bufferReader(bytes), kind);
  } catch (error) {
    if (error instanceof ContainerError) return null;
    throw error;
  }
  const fields = packet === null ? null : parseXmpPacket(packet);
  if (fields === null) return null;
  if (!of.remake && (fields.taskId ?? null) === of.record.taskId) return null;
  return (await detectC2paInBytes(bytes, kind)).found ? null : packet;
}

/**
 * `bytes` (image `image` of `record`, a `kind` file) with Pictor's packet made again from `record`
 * when it must be (see the module comment); the bytes as they are otherwise.
 */
export async function copyWithRecordPacket(
  bytes: Buffer,
  of: {
    readonly record: TaskRecord;
    readonly image: ImageRecord;
    readonly kind: ImageKind;
    readonly remake: boolean;
  },
): Promise<CopiedImage> {
  const packet = await stalePacket(bytes, of.kind, of);
  if (packet === null) return { bytes };
  const read = readPacketProvenance(packet);
  const version = read.ok && read.provenance.appVersion ? read.provenance.appVersion : 'unknown';
  const provenance = {
    ...provenanceOf(of.record, of.image.index, version),
    triage: xmpTriageOf(of.image),
  };
  try {
    return { bytes: await embedProvenanceInBuffer(bytes, of.kind, provenance) };
  } catch (error) {
    if (error instanceof ContainerError) return { refused: error.message };
    throw error;
  }
}
