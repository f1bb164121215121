/**
 * `rebuild` for a task folder whose sidecar is gone: the record is made again from what its
 * images say about themselves (read.ts), in the image or, for an image with Content Credentials
 * (never edited), in its XMP sidecar `image-<n>.xmp`. The folder is hostile input like any other: only
 * regular files named as Pictor names images are read (never through a link, with the size
 * cap), only Pictor's own XMP layout is believed, and the record goes through the record schema.
 * An image whose metadata names another task or another index than its file name is left out.
 * The template the task was made from comes back too ("Run again with…"), and the model's options
 * it asked for; a damaged one is left
 * out, the task kept, and said in a note naming the task's local id alone (its folder's name
 * holds a piece of the prompt).
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { MAX_IMAGES_PER_TASK } from '../../../../shared/domain/limits';
import { taskRecordSchema, type TaskRecord } from '../../../../shared/domain/task-record';
import { IMAGE_EXTENSION, type ImageKind } from '../../images';
import {
  NO_PICTOR_METADATA,
  readFileProvenance,
  readPacketProvenance,
  type ProvenanceRead,
  type ReadProvenance,
} from './read';
import { xmpSidecarName } from '../gallery-layout';
import { readXmpSidecar } from './xmp-sidecar';

/**
 * `image-<n>.<ext>` as the gallery names images (gallery-layout.ts), n from 1, or
 * `image-<n>-restored-<N>.<ext>` as Undo names one whose own name was taken meanwhile.
 */
const IMAGE_NAME = /^image-([1-9]\d?)(?:-restored-[1-9]\d{0,2})?\.(png|jpg|webp)$/;
const KIND_OF_EXTENSION = Object.fromEntries(
  Object.entries(IMAGE_EXTENSION).map(([kind, extension]) => [extension, kind]),
) as Record<string, ImageKind>;

export type ReadLimiter = <T>(work: () => Promise<T>) => Promise<T>;

/** How images are read, and where what they said that the record does not keep is noted. */
interface RecoverLimits {
  readonly maxBytes: number;
  readonly reads: ReadLimiter;
  /** Rebuild's notes: a path of '.' is a sentence about the library, shown alone. */
  readonly notes?: { readonly path: string; readonly reason: string }[] | undefined;
}

/** Whether a folder entry is named like one of Pictor's images. */
export function isImageName(name: string): boolean {
  const match = IMAGE_NAME.exec(name);
  return match !== null && Number(match[1]) <= MAX_IMAGES_PER_TASK;
}

async function provenances(
  root: string,
  folder: string,
  limits: { maxBytes: number; reads: ReadLimiter },
): Promise<{ found: ReadProvenance[]; reason: string | null }> {
  const entries = await readdir(folder, { withFileTypes: true }).catch(() => []);
  const names = entries
    .filter((entry) => entry.isFile() && isImageName(entry.name))
    .map((entry) => entry.name)
    .sort();
  const found: ReadProvenance[] = [];
  // Stays null while no image carries Pictor's metadata: such a folder is not a task of ours.
  let reason: string | null = null;
  for (const name of names) {
    const [, number, extension = ''] = IMAGE_NAME.exec(name) ?? [];
    const kind = KIND_OF_EXTENSION[extension];
    if (!kind) continue;
    const xmp = xmpSidecarName(name);
    const read = await readBoth(root, folder, name, kind, {
      ...limits,
      sidecar: entries.some((entry) => entry.isFile() && entry.name === xmp) ? xmp : null,
    });
    if (!read.ok) reason = read.reason === NO_PICTOR_METADATA ? reason : read.reason;
    else if (read.provenance.imageIndex + 1 !== Number(number)) {
      reason = "An image's metadata names another image than its file.";
    } else found.push(read.provenance);
  }
  return { found, reason };
}

const UNREADABLE: ProvenanceRead = {
  ok: false,
  reason: 'An image in the folder could not be read.',
};

/** What the image says in its own XMP, else in its XMP sidecar (read with the same checks). */
async function readBoth(
  root: string,
  folder: string,
  name: string,
  kind: ImageKind,
  limits: { maxBytes: number; reads: ReadLimiter; sidecar: string | null },
): Promise<ProvenanceRead> {
  const inImage = await limits
    .reads(() => readFileProvenance(root, join(folder, name), kind, limits.maxBytes))
    .catch(() => UNREADABLE);
  const { sidecar } = limits;
  if (inImage.ok || sidecar === null) return inImage;
  return readXmpSidecar(root, join(folder, sidecar))
    .then(readPacketProvenance)
    .catch(() => UNREADABLE);
}

function recordFrom(first: ReadProvenance, indexes: number[], folder: string): object {
  const { prompt, model, size, quality, createdAt, seed } = first;
  return {
    localId: first.localId,
    // The seed the images were made with (the service's, else the one the request sent): "Use
    // this seed" on the rebuilt task gives them again.
    ...(seed === undefined ? {} : { seed }),
    taskId: first.taskId ?? null,
    origin: 'submitted',
    endpoint: first.service,
    // The key's fingerprint is never written into an image.
    account: '',
    request: { prompt, model, size, quality },
    status: 'completed',
    hold: null,
    error: null,
    createdAt,
    updatedAt: createdAt,
    submittedAt: createdAt,
    finishedAt: createdAt,
    watchStartedAt: null,
    polls: 0,
    lastPolledAt: null,
    images: indexes.map((index) => ({
      index,
      url: null,
      state: 'saved',
      attempts: 0,
      favourite: false,
    })),
    favourite: false,
    folder,
    imported: true,
  };
}

/**
 * The task record the images in `folder` (root-relative `relative`) describe, or the reason
 * there is none (`null` when no image there carries Pictor's metadata: not a task folder). The
 * images are not checked against the files here: rebuild's repair does that.
 */
export async function recoverFromImages(
  root: string,
  relative: string,
  limits: RecoverLimits,
): Promise<{ ok: true; record: TaskRecord } | { ok: false; reason: string | null }> {
  const { found, reason } = await provenances(root, join(root, relative), limits);
  const first = found[0];
  if (!first)
    return { ok: false, reason: reason && `No sidecar, and no task in the images: ${reason}` };
  const mine = found.filter((item) => item.localId === first.localId);
  const indexes = [...new Set(mine.map((item) => item.imageIndex))].sort((a, b) => a - b);
  // Each image carries the task's template: the first that reads whole gives it.
  const template = mine.find((item) => item.template)?.template;
  // And what the task was made from: the first that reads whole gives it too.
  const inputs = mine.find((item) => item.inputs)?.inputs;
  // And the model's options asked for: the first that reads whole gives them.
  const params = mine.find((item) => item.params)?.params;
  const base = recordFrom(first, indexes, relative) as { request: object };
  const parsed = taskRecordSchema().safeParse({
    ...base,
    request: { ...base.request, ...(inputs ? { inputs } : {}), ...(params ? { params } : {}) },
    ...(template ? { template } : {}),
  });
  if (!parsed.success) {
    return {
      ok: false,
      reason: "No sidecar, and the images' metadata does not make a valid task.",
    };
  }
  if (!parsed.data.template && mine.some((item) => item.templateDropped)) {
    limits.notes?.push({
      path: '.',
      reason: `Task ${first.localId}: the template its images name is not valid; the task comes back without it.`,
    });
  }
  if (!parsed.data.request.inputs && mine.some((item) => item.inputsDropped)) {
    limits.notes?.push({
      path: '.',
      reason: `Task ${first.localId}: the inputs its images name are not valid; the task comes back without them.`,
    });
  }
  if (!parsed.data.request.params && mine.some((item) => item.paramsDropped)) {
    limits.notes?.push({
      path: '.',
      reason: `Task ${first.localId}: the model options its images name are not valid; the task comes back without them.`,
    });
  }
  return { ok: true, record: parsed.data };
}
