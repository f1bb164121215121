/**
 * The fs module's face (electron/core/fs/): its doors are the exports below, the only names other
 * modules and the fronts import from it. Files and folders: contained paths (`contained-fs`,
 * `gallery-path`), regular files, atomic writes, temporary names and `.pictor-tmp`, the holds that
 * keep a move of the library apart from other processes (`library-holds`), error codes,
 * default folders.
 */
export {
  fsyncDir,
  removeQuietly,
  tempPath,
  writeFileAtomic,
  writeNewFileSynced,
} from './atomic-file';
export { ChosenFileNotSavedError, modeToKeep, replaceFileBeside } from './chosen-file';
export {
  UnsafePathError,
  checkContained,
  ensureFolder,
  ensurePrivateFolderBelow,
  isWithin,
  linkRefusal,
  ownFolder,
  removeEmptyFolder,
  removeFile,
  removeTree,
  renameContained,
} from './contained-fs';
export { defaultDataDir, defaultGalleryDir } from './default-paths';
export { chosenPlaceParams, diskParams, errorCode, isPlaceRefused } from './error-codes';
export { bytesBody, fileBody } from './file-body';
export { LentBuffers } from './lent-buffers';
export { diskFreeBytes, type FreeSpace } from './free-space';
export { GalleryPathError, resolveInside, toGalleryPath } from './gallery-path';
export { openInside, realRootOf, type OpenInsideOptions } from './open-inside';
export { writePrivateFile } from './private-write';
export { copyBeside } from './copy-beside';
export {
  heldForChanges,
  holdLibraryOpen,
  heldUntilClosed,
  LibraryHeldError,
} from './library-holds';
export {
  GALLERY_FILE_MODE,
  PRIVATE_FILE_MODE,
  PRIVATE_FOLDER_MODE,
  ensurePrivateFolder,
  readKeptFileSync,
  tightenFileSync,
} from './private-files';
export { THIS_HOST, ownerName, ownerNameState, pidOf, processState } from './process-owner';
export { readableBody } from './readable-body';
export {
  copyOpenedFile,
  openedFileChunks,
  type OpenedRegularFile,
  openRegularFile,
  readAtMostOneMore,
  readOpenedFile,
  readRegularFile,
  regularFileSize,
  UnsafeFileError,
  withRegularFile,
} from './regular-file';
export { StreamSlots } from './stream-slots';
export {
  STALE_TEMP_MS,
  TEMP_DIR,
  clearTempFolder,
  isOwnTempName,
  isTempNameOf,
  ownTempName,
  sweepLeftoverTemps,
} from './temp-names';
