/**
 * The system's trash (Finder's Trash, the Recycle Bin, the freedesktop trash), as the gallery's
 * trash hands deleted images on to it once their time for Undo has ended. A port because only
 * the Electron host has one (`shell.trashItem`); the CLI and the harnesses give a stand-in.
 */

/**
 * Moves `file` to the system's trash, never deleting it outright. The core hands over only a
 * file it checked is in the trash folder of the gallery at `galleryRoot`; the host checks again
 * (a regular file, inside that root, no link on the way). Rejects when it cannot, and the core
 * keeps the file held for the next start.
 */
export type SystemTrash = (file: string, galleryRoot: string) => Promise<void>;

/** A host without a system trash: every file stays held (and is logged) until one has it. */
export const noSystemTrash: SystemTrash = () =>
  Promise.reject(new Error('This host has no system trash.'));
