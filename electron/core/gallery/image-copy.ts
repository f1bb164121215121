/**
 * "Save as…" of a gallery image: a copy of its file in the file the user chose in main's own save
 * dialog, for the app's shell actions and any front that offers it. The image is opened as a
 * regular file inside the gallery (never through a link, core/fs/regular-file.ts) and only its
 * checked size is read; the copy replaces the chosen file whole or not at all
 * (core/fs/chosen-file.ts), so a full disk never leaves half an image there, nor destroys the
 * file the user agreed to overwrite.
 */
import { resolve } from 'node:path';
import { GALLERY_MAX_IMAGE_BYTES } from '../../../shared/domain/limits';
import { sentence } from '../../../shared/i18n/sentence';
import { describeThrown, UserFacingError } from '../errors';
import {
  ChosenFileNotSavedError,
  openedFileChunks,
  openRegularFile,
  replaceFileBeside,
} from '../fs';

/** The image could not be read to be copied (gone, a link, changed on the way…). */
function unreadable(error: unknown): UserFacingError {
  return new UserFacingError(sentence('error.gallery.copyUnreadable'), {
    code: 'failed',
    detail: describeThrown(error),
    cause: error,
  });
}

/**
 * Copies the image `file` (absolute, inside the gallery `root`) to `target`. A target that is the
 * image itself is left as it is.
 * @throws ChosenFileNotSavedError when `target` cannot be written (nothing changed there);
 *   UserFacingError when the image cannot be read.
 */
export async function saveImageCopy(root: string, file: string, target: string): Promise<void> {
  if (resolve(target) === resolve(file)) return;
  const { handle, size } = await openRegularFile(root, file, GALLERY_MAX_IMAGE_BYTES).catch(
    (error: unknown) => {
      throw unreadable(error);
    },
  );
  try {
    await replaceFileBeside(target, openedFileChunks(handle, size));
  } catch (error) {
    throw error instanceof ChosenFileNotSavedError ? error : unreadable(error);
  } finally {
    await handle.close();
  }
}
