/**
 * Makes the thumbnail of an image already saved in the gallery (one whose thumbnail is pending):
 * the file goes through the same check as a download (image-finish.ts), and the thumbnail is
 * written under its deterministic name beside it, through a temp file, never through a link.
 */
import { mkdir, rename } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import type { ImageRecord } from '../../../shared/domain/task-record';
import type { Sentence } from '../../../shared/i18n/sentence';
import {
  checkContained,
  fsyncDir,
  PRIVATE_FOLDER_MODE,
  removeQuietly,
  TEMP_DIR,
  tempPath,
  toGalleryPath,
  writeNewFileSynced,
} from '../fs';
import { THUMBS_DIR, imageNames } from '../gallery';
import { checkImage, type ImageCheckLimits } from './image-finish';
import { IMAGE_MIME, type ImageKind } from '../images';

export type SavedThumbnail =
  /** Made: the root-relative thumbnail and the decoded size. */
  | {
      readonly kind: 'made';
      readonly thumbnail: string;
      readonly width: number;
      readonly height: number;
    }
  /** The image does not pass the check (damaged, not what it says): its sentence. */
  | { readonly kind: 'refused'; readonly error: string; readonly errorSentence?: Sentence }
  /** Not now (no decoder here, the engine failed, the disk refused): it stays pending. */
  | { readonly kind: 'later'; readonly why: string };

const KIND_OF_MIME: Readonly<Record<string, ImageKind>> = Object.fromEntries(
  Object.entries(IMAGE_MIME).map(([kind, mime]) => [mime, kind as ImageKind]),
);

/**
 * The thumbnail of `image` (a saved image of the gallery at `root`, its file resolved by
 * `resolve`), made and stored; what became of it otherwise. Throws only for a path outside the
 * gallery (GalleryPathError) or a link on the way (UnsafePathError).
 */
export async function makeSavedThumbnail(
  root: string,
  resolve: (relative: string) => string,
  image: ImageRecord,
  limits: ImageCheckLimits,
): Promise<SavedThumbnail> {
  const kind = image.mime ? KIND_OF_MIME[image.mime] : undefined;
  if (image.state !== 'saved' || !image.file || !kind)
    return { kind: 'later', why: 'not a saved image' };
  const file = resolve(image.file);
  const folder = dirname(file);
  await checkContained(root, join(folder, THUMBS_DIR));
  await checkContained(root, join(root, TEMP_DIR));
  const checked = await checkImage(file, kind, limits).catch((error: unknown) => {
    // The file is gone or not a regular file any more: nothing to make now.
    return { state: 'retry' as const, error: error instanceof Error ? error.name : 'unreadable' };
  });
  if ('state' in checked) {
    if (checked.state === 'invalid') return { kind: 'refused', ...checked };
    return { kind: 'later', why: checked.error };
  }
  if (!checked.thumbnail) return { kind: 'later', why: 'no image decoder here' };
  const target = join(folder, imageNames(image.index, kind).thumbnail);
  const temp = tempPath(root, '.thumb.part');
  try {
    await mkdir(join(folder, THUMBS_DIR), { recursive: true, mode: PRIVATE_FOLDER_MODE });
    await writeNewFileSynced(temp, checked.thumbnail);
    await rename(temp, target);
    await fsyncDir(join(folder, THUMBS_DIR));
  } catch (error) {
    await removeQuietly(temp);
    return { kind: 'later', why: error instanceof Error ? error.message : String(error) };
  }
  return {
    kind: 'made',
    thumbnail: toGalleryPath(root, target),
    width: checked.width,
    height: checked.height,
  };
}
