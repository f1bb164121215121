/**
 * The system's trash through Electron (`shell.trashItem`): Finder's Trash, the Recycle Bin, the
 * freedesktop trash. The core (core/trash) hands it a file of the gallery's own trash folder once
 * the file's time for Undo has ended, and keeps the file held when this throws.
 */
import { lstat } from 'node:fs/promises';
import { shell } from 'electron';
import { sentence } from '../../shared/i18n/sentence';
import { galleryGuard } from '../app/os/path-guard';
import { messageOf, UserFacingError } from '../core/errors';
import type { SystemTrash } from '../ports/system-trash';

/**
 * Checks the file again as every OS action does (inside the gallery, no link on the way, a
 * regular file: never a FIFO or a device), then trashes it; a failure throws the user's sentence
 * once, the system's own words as its detail.
 */
export const electronSystemTrash: SystemTrash = async (file, galleryRoot) => {
  if (!(await galleryGuard(() => galleryRoot)(file))) {
    throw new UserFacingError(sentence('error.gallery.fileOutsideGallery'), { code: 'forbidden' });
  }
  const info = await lstat(file);
  if (!info.isFile()) {
    throw new UserFacingError(sentence('error.gallery.notAnImageFile'), { code: 'not_found' });
  }
  try {
    await shell.trashItem(file);
  } catch (error) {
    throw new UserFacingError(sentence('error.gallery.trashFailed'), {
      code: 'failed',
      detail: messageOf(error),
      cause: error,
    });
  }
};
