/**
 * Error sentences of the gallery area (merged into shared/i18n/main-messages.ts): keys
 * `error.gallery.*`, ICU MessageFormat, typographic apostrophes (’), placeholders for every value.
 */

/**
 * How a download that will be tried again ends: `last` is `yes` once the attempts of this run are
 * used up (core/engine/download-manager.ts), else absent.
 */
const TRY_AGAIN =
  '{last, select, yes {Pictor will try again at the next start, or when you choose Retry.} other {Pictor will try again.}}';

/**
 * A disk failure's reason in plain words, by `problem` (core/download/download-outcome.ts
 * `diskParams`), with the system's error `code` for a support request.
 */
export const DISK_PROBLEM =
  '{problem, select, full { because the disk is full (no space left) ({code})} quota { because the disk quota is used up ({code})} readOnly { because the disk is read-only ({code})} denied { because Pictor is not allowed to write there ({code})} code { ({code})} other {}}';

export const galleryErrors = {
  // Download outcomes kept in ImageRecord.error (core/download/download-outcome.ts and its callers).
  'error.gallery.imageExpired':
    'The image is no longer available: the image server answered {status}. Image addresses from the service expire after a while.',
  'error.gallery.resultsExpired':
    'The image is no longer available: {service} keeps a task’s results for {minutes, plural, one {# minute} other {# minutes}}, and its link had stopped working when Pictor tried to save it ({reason}).',
  'error.gallery.imageNoAddress': 'The service gave no address for this image.',
  // The spool file of an image sent inline (core/download/inline-spool.ts).
  'error.gallery.inlineImageLost':
    'The image the service sent inside its answer is no longer in the task’s folder, or it was changed there, so Pictor cannot save it.',
  'error.gallery.imageFolderOutside': 'The task’s gallery folder is not inside the gallery.',
  'error.gallery.imageUnreadable': 'The image file is damaged and could not be read.',
  'error.gallery.imageTypeMismatch':
    'The image file is damaged: its contents do not match its type.',
  'error.gallery.imageNoSize': 'The image file does not say how big it is.',
  'error.gallery.imageTooManyPixels':
    'The image claims to be {size} pixels, more than the {limit, number} pixels Pictor accepts.',
  'error.gallery.imageUndecodable': 'The image is damaged or incomplete and could not be decoded.',
  // A key the process holds where no part of the image's metadata can be left out (key-intake.ts).
  // A saved image whose task id carries a held key, as it leaves the app (outgoing-file.ts).
  'error.gallery.outgoingCarriesKey':
    'Pictor did not let this image out: its file carries an API key this computer holds, in a part Pictor cannot remove without changing the image.',
  'error.gallery.imageCarriesKey':
    'The image was not saved: its file carries an API key this computer holds, in a part Pictor cannot remove without changing the image.',
  'error.gallery.imageStatus': 'The image server answered {status} instead of sending the image.',
  'error.gallery.imageAddressUnchecked': 'The image address could not be checked.',
  'error.gallery.redirectWithoutLocation':
    'The image server sent a redirect without saying where to.',
  'error.gallery.redirectTooMany':
    'The image server redirected more than {max, plural, one {# time} other {# times}}, so Pictor stopped following it.',
  'error.gallery.redirectInvalid': 'The image server redirected to an address that is not valid.',
  'error.gallery.imageTooBig': 'The image is larger than the {limit} Pictor accepts.',
  'error.gallery.notAnImage':
    'The image server sent {kind, select, empty {an empty file} html {an HTML page} svg {an SVG} xml {an XML document} json {a JSON document} gif {a GIF} bmp {a BMP} tiff {a TIFF} heif {an AVIF, HEIC or video file} pdf {a PDF} gzip {a gzip archive} zip {a ZIP archive} fragment {a fragment of an image too short to use} text {a text file} other {a file of an unknown kind}} instead of a PNG, JPEG or WebP image.',
  'error.gallery.downloadTimeout': `The image could not be downloaded: the image server did not finish within {seconds, plural, one {# second} other {# seconds}}. ${TRY_AGAIN}`,
  'error.gallery.downloadStopped': `The image could not be downloaded: the download was stopped before it finished. ${TRY_AGAIN}`,
  'error.gallery.downloadUnreachable': `The image could not be downloaded: the image server could not be reached. ${TRY_AGAIN}`,
  'error.gallery.downloadUnreachableCode': `The image could not be downloaded: the image server could not be reached ({code}). ${TRY_AGAIN}`,
  'error.gallery.downloadDropped': `The image could not be downloaded: the connection dropped during the download. ${TRY_AGAIN}`,
  'error.gallery.downloadDroppedCode': `The image could not be downloaded: the connection dropped during the download ({code}). ${TRY_AGAIN}`,
  'error.gallery.downloadBusy': `The image could not be downloaded: the image server is busy (it answered 429). ${TRY_AGAIN}`,
  'error.gallery.downloadServerStatus': `The image could not be downloaded: the server answered {status}. ${TRY_AGAIN}`,
  'error.gallery.downloadCutShort': `The image could not be downloaded: the connection ended after {received} of {declared} bytes. ${TRY_AGAIN}`,
  'error.gallery.downloadNotChecked': `The image could not be downloaded: the image could not be checked ({why, select, timeout {it took too long to process} crashed {Pictor’s image worker stopped unexpectedly} other {image work was stopped}}). ${TRY_AGAIN}`,
  'error.gallery.downloadNotWritten': `The image could not be downloaded: the image could not be written to the gallery folder${DISK_PROBLEM}. ${TRY_AGAIN}`,
  'error.gallery.downloadNotStored': `The image could not be downloaded: the image could not be stored in the gallery folder${DISK_PROBLEM}. ${TRY_AGAIN}`,
  'error.gallery.downloadFolderNotWritable': `The image could not be downloaded: the gallery folder could not be written to${DISK_PROBLEM}. ${TRY_AGAIN}`,
  'error.gallery.downloadUnexpected': `The image could not be downloaded: something unexpected went wrong. ${TRY_AGAIN}`,
  // A task whose images came inline, when they could not be kept (core/engine/inline-results.ts).
  'error.gallery.inlineNotKept': `The service finished the task, but Pictor could not keep the images it sent inside its answer in the gallery folder${DISK_PROBLEM}. Pictor will ask the service for them again.`,

  // Paths inside the gallery (core/fs/gallery-path.ts, gallery.ts).
  'error.gallery.pathNotText': 'The gallery path is empty or not valid text.',
  'error.gallery.pathBackslash': 'The gallery path contains a backslash.',
  'error.gallery.pathNotRelative': 'The gallery path must be relative to the gallery folder.',
  'error.gallery.pathLeaves': 'The gallery path leaves the gallery folder.',
  'error.gallery.rootNotAbsolute': 'The gallery folder must be an absolute path.',
  // Links and paths outside the folder Pictor trusts (core/fs/contained-fs.ts).
  'error.gallery.pathIsLink':
    '{path} is a link (a symbolic link or junction), where Pictor expects a folder or file of its own. Pictor does not delete, move or write anything through a link: remove the link or move it out of the folder, then try again.',
  'error.gallery.pathOutside':
    '{path} is not inside {root}, so Pictor will not delete, move or write it.',
  'error.gallery.fileNotFolder':
    '{path} is a file where Pictor expects a folder. Move it away, then try again.',
  'error.gallery.folderNotFile': '{path} is a folder where Pictor expects a file.',
  'error.gallery.pathExists': '{path} already exists, so Pictor will not replace it.',

  // One image of the gallery (core/gallery/gallery-images.ts).
  'error.gallery.imageNotInGallery': 'That image is not in the gallery.',
  'error.gallery.imageNotOnDisk':
    'This image is not on disk (it was not saved, or it was deleted).',
  'error.gallery.imageNotOnDiskShort': 'This image is not on disk.',
  'error.gallery.imageInSystemTrash':
    'This image can no longer be restored here: it went on to the trash of this computer, where you can still find it.',
  'error.gallery.imageChangedSinceDelete':
    'This image changed since it was deleted, so it was not restored.',
  'error.gallery.deleteUndone':
    'The delete was undone before it finished: the image stays in the gallery.',

  // Moving the gallery (core/library/relocate.ts, relocate-target.ts).
  'error.gallery.moveOverlaps':
    'The new gallery folder cannot be inside the current one, or contain it. Choose a separate folder.',
  'error.gallery.moveIntoHome':
    'The gallery cannot be your home folder itself ({path}). Choose or create a folder inside it, such as Pictures/Pictor.',
  'error.gallery.moveAroundHome':
    'The gallery cannot be {path}: it contains your home folder. Choose or create a folder inside your home folder, such as Pictures/Pictor.',
  'error.gallery.moveSystemFolder':
    'The gallery cannot be {path}: it is a system folder. Choose or create a folder inside your home folder, such as Pictures/Pictor.',
  'error.gallery.moveDataFolder':
    'The gallery cannot be {path}: Pictor keeps its own data (history, settings, key) in {data}, and the two must stay apart. Choose another folder.',
  'error.gallery.moveClash':
    'The folder {target} already has folders where the gallery’s task folders would go ({folders}). Choose an empty folder. Nothing was copied or removed.',
  'error.gallery.moveStoppedPath':
    'Pictor stopped moving the gallery: {copied} of {total, plural, one {# task folder was} other {# task folders were}} copied to {target} ({reason}). Your library is still at {source} and still in use; nothing was removed from it. Fix the cause and try again: the move continues where it stopped.',
  'error.gallery.moveStoppedDisk': `Pictor stopped moving the gallery: {copied} of {total, plural, one {# task folder was} other {# task folders were}} copied to {target} (a file could not be copied${DISK_PROBLEM}). Your library is still at {source} and still in use; nothing was removed from it. Fix the cause and try again: the move continues where it stopped.`,
  // A name the new folder's disk cannot hold (core/library/relocate-names.ts): found before the
  // copy (0 copied) or met by it. `why`: twin (`other` is the library's name it is taken for),
  // characters (the refused ones), ending, tooLong, else the system's `code`.
  'error.gallery.moveNameRefused':
    'Pictor stopped moving the gallery: {copied} of {total, plural, one {# task folder was} other {# task folders were}} copied to {target} (the disk there cannot hold the name {file}: {why, select, twin {it takes it for {other}, a name that differs only in upper and lower case or in how an accent is written} characters {it does not accept {characters} in a name} ending {it does not keep a dot or a space at the end of a name} tooLong {the name is longer than that disk allows} other {it refused the name ({code})}}). Your library is still at {source} and still in use; nothing was removed from it. Choose a folder on a disk that can hold this name, then try again.',
  'error.gallery.moveStoppedSwitch':
    'Pictor stopped moving the gallery: {copied} of {total, plural, one {# task folder was} other {# task folders were}} copied to {target} (Pictor could not switch to the new folder: {reason}). Your library is still at {source} and still in use; nothing was removed from it. Fix the cause and try again: the move continues where it stopped.',
  // Choosing the gallery folder (electron/core/library/folder-choices.ts), one change at a time
  // (electron/core/operations/core-operations.ts).
  'error.gallery.folderChoiceExpired':
    'That folder choice is no longer valid. Choose the folder again.',
  'error.gallery.moveRunning': 'The gallery is already being moved.',
  // electron/core/fs/library-holds.ts: another process (a pictor command) has the library open.
  'error.gallery.moveInUse':
    'Pictor cannot move the gallery while another Pictor process (a pictor command, or an agent’s Pictor server) has the library open: it would go on writing into the old folder. Let it finish, then try again.',

  // Acting on an image through the system (electron/adapters/shell-actions.ts).
  'error.gallery.fileOutsideGallery':
    'Pictor works only with files inside its gallery folder, and this one is not there.',
  'error.gallery.notAnImageFile': 'This is not an image file.',
  'error.gallery.fileGone':
    'The image is no longer in the gallery folder. It may have been moved or deleted outside Pictor.',
  'error.gallery.openFolderFailed':
    'Pictor could not open the {which, select, logs {logs folder} other {gallery folder}}. It is at {path}',
  'error.gallery.trashFailed':
    'Pictor could not move the image to the trash, so it is still in the gallery folder. Your system may have no trash for this folder.',
  'error.gallery.copyUnreadable': 'Pictor could not read this image to copy it.',
  'error.gallery.imageTooLarge':
    'This file is larger than any image Pictor saves ({max, number} bytes at most), so Pictor does not read it. It was not made by Pictor.',
  'error.gallery.clipboardFailed': 'Pictor could not put the image on the clipboard.',
  'error.gallery.dragFailed': 'Pictor could not start dragging this image.',
  'error.gallery.linkNotHttps': 'Pictor opens only secure web links (https) in your browser.',
  'error.gallery.linkFailed': 'Pictor could not open the link in your browser.',
  'error.gallery.saveCopyFailed':
    'Pictor could not save a copy there. Check that the folder exists and that you can write to it.',
} as const;
