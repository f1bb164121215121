/**
 * Content Credentials of images Pictor did not download this time: an imported archive's or
 * folder's, a rebuilt gallery's. A verdict written in such a folder or archive is not believed
 * (`verdictFromDisk` keeps only "none"); Pictor's own look is, the same as a download's
 * (credentials-step.ts): the container walked for a manifest store, the store verified where
 * hostile bytes cost nothing. The store is looked for only in files Pictor wrote itself: an
 * import's staged copy, or a copy made in the temp folder through the gallery's checked reader;
 * each is opened inside the gallery and the verifier gets the bytes read from that handle.
 */
import { open } from 'node:fs/promises';
import type { ContentCredentials } from '../../../shared/domain/content-credentials';
import type { ImageRecord, TaskRecord } from '../../../shared/domain/task-record';
import type { ContentCredentialVerifier } from '../../ports/content-credential-verifier';
import type { Logger } from '../../ports/logger';
import { copyOpenedFile, openRegularFile, removeQuietly, resolveInside, tempPath } from '../fs';
import { findCredentials } from './credentials-step';
import type { ImageCheckResult } from './image-finish';
import { IMAGE_MIME, type ImageKind } from '../images';

export interface FoundCredentialsContext {
  readonly root: string;
  readonly verifier?: ContentCredentialVerifier;
  readonly logger: Logger;
}

/**
 * Whose images these are, for the verifier's turns (core/content-credentials/fair-verifier.ts):
 * a rebuilt or imported library's images take turns as one source of their own, so a crafted
 * folder or archive can hold up only itself, never a download.
 */
const LIBRARY_SERVICE = 'library';

/** The gallery's image cap: a bigger file is not one of its images. */
const MAX_IMAGE_FILE_BYTES = 64 * 1024 * 1024;

/**
 * `check` (the gallery's image check) of `file`, a file Pictor wrote (an import's staged copy),
 * with the verdict on its Content Credentials when it passed; verifying overlaps the check, as in
 * a download. No verdict when nothing could verify a store the file carries.
 */
export async function checkedWithCredentials(
  file: string,
  kind: ImageKind,
  check: () => Promise<ImageCheckResult>,
  context: FoundCredentialsContext,
): Promise<ImageCheckResult> {
  // An import names no task here: each image has a budget of its own.
  const owner = { service: LIBRARY_SERVICE, task: file };
  const found = await findCredentials(context.root, file, kind, { ...context, owner });
  const result = await check();
  const verdict = await found.verdict;
  if ('state' in result || !verdict) return result;
  return { ...result, contentCredentials: verdict };
}

/** A copy of the gallery file `path` in the temp folder, read through the checked reader. */
async function copyToTemp(root: string, path: string): Promise<string> {
  const { handle: input, size } = await openRegularFile(root, path, MAX_IMAGE_FILE_BYTES);
  const copy = tempPath(root, '.c2pa.part');
  try {
    const output = await open(copy, 'wx', 0o600);
    try {
      await copyOpenedFile(input, size, output);
    } finally {
      await output.close();
    }
    return copy;
  } catch (error) {
    await removeQuietly(copy);
    throw error;
  } finally {
    await input.close();
  }
}

const KIND_OF_MIME = new Map<string, ImageKind>(
  (Object.entries(IMAGE_MIME) as [ImageKind, string][]).map(([kind, mime]) => [mime, kind]),
);

async function verifiedImage(
  image: ImageRecord,
  localId: string,
  context: FoundCredentialsContext & { readonly verifier: ContentCredentialVerifier },
): Promise<ImageRecord> {
  const kind = KIND_OF_MIME.get(image.mime ?? '');
  if (image.state !== 'saved' || !image.file || !image.xmpFile || !kind) return image;
  let copy: string | null = null;
  try {
    copy = await copyToTemp(context.root, resolveInside(context.root, image.file));
    const owner = { service: LIBRARY_SERVICE, task: localId };
    const verdict: ContentCredentials | undefined = await (
      await findCredentials(context.root, copy, kind, { ...context, owner })
    ).verdict;
    return verdict ? { ...image, contentCredentials: verdict } : image;
  } catch {
    // Unreadable or gone since the rebuild looked: it stays unchecked.
    return image;
  } finally {
    if (copy) await removeQuietly(copy);
  }
}

/**
 * `record` (rebuilt from a folder) with Pictor's own verdict on each saved image that has an XMP
 * sidecar beside it: Pictor writes one only beside an image that carries a manifest store, so a
 * rebuild of a large gallery reads no other image for this. Without a verifier it is unchanged.
 */
async function withFoundCredentials(
  record: TaskRecord,
  context: FoundCredentialsContext,
): Promise<TaskRecord> {
  const { verifier } = context;
  if (!verifier || !record.images.some((image) => image.xmpFile)) return record;
  const images: ImageRecord[] = [];
  for (const image of record.images) {
    images.push(await verifiedImage(image, record.localId, { ...context, verifier }));
  }
  return { ...record, images };
}

/** {@link withFoundCredentials} for each record, one after the other (one temp copy at a time). */
export async function withFoundCredentialsAll(
  records: readonly TaskRecord[],
  context: FoundCredentialsContext,
): Promise<TaskRecord[]> {
  const verified: TaskRecord[] = [];
  for (const record of records) verified.push(await withFoundCredentials(record, context));
  return verified;
}
