/**
 * Reads the provenance Pictor wrote into an image back, for `rebuild` when a task's sidecar is
 * gone. The image came from a folder anyone could write: it is walked a range at a time (never
 * read whole), the packet is size-capped, only Pictor's own layout is read, and every field is
 * checked with the same limits as a record. A damaged template loses the template alone, damaged
 * inputs (xmp-lineage.ts) the inputs alone, and damaged options (xmp-params.ts) the options alone.
 */
import { seedSchema } from '../../../../shared/service/service-seed';
import { z } from 'zod';
import { lazySchema } from '../../../../shared/domain/lazy-schema';
import {
  MAX_IMAGES_PER_TASK,
  MAX_LOCAL_ID_CHARS,
  MAX_TASK_ID_CHARS,
  REQUEST_LIMITS,
  dateMsSchema,
} from '../../../../shared/domain/limits';
import { SIZE_PATTERN } from '../../../../shared/service/wire';
import type { ImageKind } from '../../images';
import { ContainerError } from './container';
import { readJpegXmp } from './jpeg-meta';
import { MAX_READ_TEXT, XMP_KEYWORD, readPngText } from './png-meta';
import { serviceOriginOf } from './provenance';
import { bufferReader, fileReader, type RangeReader } from './range-reader';
import { readWebpXmp } from './webp-meta';
import { withRegularFile } from '../../fs';
import { parseXmpPacket, type ImageProvenance } from './xmp-packet';
import { readXmpTemplate } from './xmp-template';
import { readXmpLineage } from './xmp-lineage';
import { readXmpParams } from './xmp-params';

const text = (max: number) => z.string().min(1).max(max);

/**
 * The packet's fields, checked. Built on first use (lazy-schema.ts): a rating that writes a
 * sidecar loads this module and reads no packet's provenance.
 */
const fieldsSchema = lazySchema(() =>
  z.object({
    prompt: text(REQUEST_LIMITS.prompt),
    model: text(REQUEST_LIMITS.model).optional(),
    size: z.string().regex(SIZE_PATTERN).optional(),
    quality: text(REQUEST_LIMITS.quality).optional(),
    taskId: text(MAX_TASK_ID_CHARS).optional(),
    localId: text(MAX_LOCAL_ID_CHARS),
    imageIndex: z
      .string()
      .regex(/^\d{1,2}$/)
      .transform(Number)
      .pipe(
        z
          .number()
          .int()
          .min(0)
          .max(MAX_IMAGES_PER_TASK - 1),
      ),
    service: z
      .string()
      .max(300)
      // An origin, or the built-in demo's endpoint (serviceOriginOf gives both as they are).
      .refine((value) => serviceOriginOf(value) === value, {
        message: 'The service is not an origin.',
      }),
    createDate: z
      .string()
      .max(40)
      .transform((value) => Date.parse(value))
      .pipe(dateMsSchema()),
    appVersion: z.string().max(100).optional(),
    promptTruncated: z.literal('True').optional(),
    // A damaged seed is dropped, never the provenance.
    seed: z
      .string()
      .regex(/^\d{1,16}$/)
      .transform(Number)
      .pipe(seedSchema())
      .optional()
      .catch(undefined),
  }),
);

/** The reason given for an image that carries no Pictor metadata at all. */
export const NO_PICTOR_METADATA = 'The image carries no Pictor metadata.';

/** What an image says about itself, checked; `truncated` when its prompt was shortened to fit. */
export interface ReadProvenance extends ImageProvenance {
  readonly truncated: boolean;
  /** The packet names a template that is damaged or past its bounds: read without it. */
  readonly templateDropped?: true;
  /** The packet names inputs that are damaged or past their bounds: read without them. */
  readonly inputsDropped?: true;
  /** The packet names model options that are damaged or past their bounds: read without them. */
  readonly paramsDropped?: true;
}

/** The template part of a {@link ReadProvenance} for what xmp-template.ts read. */
function templatePart(read: ReturnType<typeof readXmpTemplate>) {
  if (read === null) return {};
  return read === 'dropped' ? { templateDropped: true as const } : read;
}

/** The inputs part of a {@link ReadProvenance} for what xmp-lineage.ts read. */
function lineagePart(read: ReturnType<typeof readXmpLineage>) {
  if (read === null) return {};
  return read === 'dropped' ? { inputsDropped: true as const } : read;
}

/** The options part of a {@link ReadProvenance} for what xmp-params.ts read. */
function paramsPart(read: ReturnType<typeof readXmpParams>) {
  if (read === null) return {};
  return read === 'dropped' ? { paramsDropped: true as const } : read;
}

/** The XMP packet where the container of `kind` keeps it, as text; null when it has none. */
export function packetOf(reader: RangeReader, kind: ImageKind): Promise<string | null> {
  if (kind === 'png') return readPngText(reader, XMP_KEYWORD);
  if (kind === 'jpeg') return readJpegXmp(reader);
  return readWebpXmp(reader);
}

/** The reason or the provenance, as {@link readImageProvenance} answers. */
export type ProvenanceRead =
  { ok: true; provenance: ReadProvenance } | { ok: false; reason: string };

/**
 * The provenance in `image` (bytes, or a reader over a file), or the reason there is none that
 * can be used (a sentence). Never throws for anything in the file.
 */
export async function readImageProvenance(
  image: Uint8Array | RangeReader,
  kind: ImageKind,
): Promise<ProvenanceRead> {
  let packet: string | null;
  try {
    packet = await packetOf(image instanceof Uint8Array ? bufferReader(image) : image, kind);
  } catch (error) {
    if (error instanceof ContainerError) return { ok: false, reason: error.message };
    throw error;
  }
  return readPacketProvenance(packet);
}

/**
 * The provenance in an XMP packet (one read from an image, or an XMP sidecar's text), checked
 * field by field; the reason when there is none that can be used.
 */
export function readPacketProvenance(packet: string | null): ProvenanceRead {
  if (packet === null || packet.length > MAX_READ_TEXT) {
    return { ok: false, reason: NO_PICTOR_METADATA };
  }
  const fields = parseXmpPacket(packet);
  if (!fields) return { ok: false, reason: NO_PICTOR_METADATA };
  const parsed = fieldsSchema().safeParse(fields);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    return {
      ok: false,
      reason: `The image's Pictor metadata is not valid (${issue?.path.join('.') || 'fields'}).`,
    };
  }
  const { createDate, promptTruncated, appVersion, ...rest } = parsed.data;
  return {
    ok: true,
    provenance: {
      ...rest,
      createdAt: createDate,
      appVersion: appVersion ?? '',
      truncated: promptTruncated === 'True',
      ...templatePart(readXmpTemplate(packet)),
      ...lineagePart(readXmpLineage(packet)),
      ...paramsPart(readXmpParams(packet)),
    },
  };
}

/**
 * {@link readImageProvenance} of a file: opened only when it is a regular file of at most
 * `maxBytes` inside `root` (never through a link, never blocking: regular-file.ts), walked a
 * range at a time.
 * @throws UnsafeFileError, or a file-system error, when the file cannot be opened as one.
 */
export async function readFileProvenance(
  root: string,
  path: string,
  kind: ImageKind,
  maxBytes: number,
): Promise<ProvenanceRead> {
  return withRegularFile(root, path, maxBytes, (handle, size) =>
    readImageProvenance(fileReader(handle, size), kind),
  );
}
