/**
 * Error sentences of the library area (merged into shared/i18n/main-messages.ts): keys
 * `error.library.*`, ICU MessageFormat, typographic apostrophes (’), placeholders for every value.
 * The task engine, the history database, the library archive (export and import) and the IPC
 * bridge's refusals. Limits, versions, paths and codes are passed as strings (identifiers, not
 * amounts to format).
 */
import { DISK_PROBLEM } from './gallery';

/** What to do when the disk chosen to write to is full (`problem` full or quota). */
const FREE_SPACE = 'free some space or choose a folder on another disk';

export const libraryErrors = {
  // electron/core/engine/task-engine.ts
  'error.library.taskCountRange': 'The number of tasks must be a whole number from {min} to {max}.',
  'error.library.noKey': 'No API key is set. Add one in Settings, then try again.',
  'error.library.historyWriteBeforeSubmit':
    'Pictor could not save the new task to its history, so nothing was sent. Check that the disk has free space, then try again.',
  'error.library.taskNotInHistory': 'That task is not in the history.',
  // electron/core/trash/trash-operations.ts
  'error.library.taskNoLongerHeld':
    'This task can no longer be put back: it was removed for good when the time to undo ended or Pictor quit.',
  'error.library.nothingToResume':
    'This task never got an id from the service, so there is nothing to resume. Submit it again.',
  'error.library.promptEmpty': 'The prompt is empty.',
  'error.library.promptTooLong': 'The prompt is too long.',
  'error.library.sizeFormat': 'The size must look like 1024x1024 (two whole numbers).',
  'error.library.requestInvalid': 'The request is not valid.',

  // electron/core/engine/submitter.ts
  'error.library.noKeyForSubmit': 'No API key is set.',
  'error.library.batchNotSent':
    'Not sent: the first request of this batch did not go through, so Pictor sent none of the others. Submit again once that is solved.',
  // electron/core/engine/answered-id.ts
  'error.library.taskIdOfAnother':
    'The service answered with the id of another task, so nothing will be downloaded for this one. The request may have reached the service; Pictor does not send it again on its own.',

  // electron/core/engine/task-transitions.ts
  'error.library.interruptedRateLimited':
    'Pictor was closed while waiting to retry this request after the service asked it to slow down. Nothing was created; submit it again when you are ready.',
  'error.library.removedBeforeSent':
    'Not sent: this task was removed before its request left, so the service has nothing of it. Submit it again if you want it.',
  'error.library.interruptedSubmit':
    'Pictor was closed before the service answered this request, so it cannot tell whether the task was created. It is not sent again on its own: submit it again if no image arrives.',
  'error.library.submitMayHaveReached':
    'The request may have reached the service, but no task id came back, so Pictor cannot follow it. It is not sent again on its own: submit it again if no image arrives.',
  'error.library.unexpectedTaskError': 'Something unexpected went wrong in Pictor.',

  // electron/core/engine/poller.ts
  'error.library.otherAccountTask':
    'The current key cannot see this task: it was created with another account’s key. It waits, and continues when that key is set again.',
  'error.library.taskNotFound':
    'The service does not know this task (404) for the key that created it. It may have expired on the service.',

  // electron/core/engine/download-manager.ts
  'error.library.noImagesListed': 'The service said the task completed but listed no images.',
  'error.library.imageNoAddress': 'The service listed this image without an address.',
  'error.library.imageNotSaved':
    'The image could not be saved: {reason}.{last, select, yes { Pictor will try again at the next start, or when you choose Retry.} other {}}',

  // electron/core/history/*.ts
  'error.library.historyCursorInvalid':
    'The page cursor is not valid; start again from the first page.',
  'error.library.historyCursorGone':
    'The image the page continued from is gone; start again from the top.',
  'error.library.historyNewer':
    'The history database {file} was written by a newer version of Pictor. Update Pictor to open it; it has not been changed.',
  'error.library.historyUpgradeFailed':
    'Pictor could not upgrade its history database to version {version}. Nothing was changed; report this problem.',
  'error.library.historyDamaged':
    'The history database is damaged. Quit Pictor, then restore a backup or move the file aside to start a new history.',
  'error.library.historyReadFailed':
    'Pictor could not read its history database. Restart Pictor; if this repeats, report it.',
  'error.library.historyWriteFailed':
    'Pictor could not save to its history database. Check that the disk has free space and is writable.',
  'error.library.historyClosed': 'The history database is closed.',
  // A delete, removal or Undo asked for while the core closes (core/trash/trash-operations.ts).
  'error.library.closing':
    'Pictor is closing, so nothing was changed. Do it again once Pictor has started again.',
  'error.library.historyRecordInvalid':
    'Pictor did not save a task because its record is not valid; report this problem.',
  'error.library.historyOpenFailed':
    'Pictor could not open its history database {file}. Check that the folder exists and is writable.',
  'error.library.historyLocked':
    'The history database {file} is locked by another program. Close it, then try again.',
  'error.library.historyNotDatabase':
    'The file {file} is not a Pictor history database, or it is damaged. Pictor left it unchanged; move it aside to start a new history.',
  // An open the disk refused (full, read-only, failing): the file is not the problem.
  'error.library.historyDiskRefused':
    'Pictor could not open its history database {file}: the disk refused (full, read-only or failing). The file was not changed: free some space or check the disk, then try again.',
  // A process's hold on the library (core/fs/library-holds.ts) the disk refused.
  'error.library.holdDiskRefused':
    'Pictor could not use the library: the disk refused a file in its data folder {folder} (full, read-only or failing). Nothing was changed: free some space or check the disk, then try again.',
  'error.library.historyCheckFailed':
    'The history database {file} is damaged. Pictor left it unchanged; restore a backup or move it aside to start a new history.',

  // electron/core/library/archive/entry-path.ts (a path refused in a folder, or in an archive)
  'error.library.pathRefused':
    '{rule, select, empty {The path is empty or not valid text.} backslash {The path contains a backslash.} absolute {The path must be relative to the gallery folder.} leaves {The path leaves the gallery folder.} long {The path is too long.} tricky {The path holds invisible, control or look-alike characters.} nfc {The path is not in normalised (NFC) Unicode.} deep {The path is nested too deep.} dot {The path has an empty or "." part.} name {A name in the path is too long.} other {A name in the path is not allowed on every system (reserved name or character).}}',

  // electron/core/library/rebuild-rules.ts (a task folder a rebuild left out for its name)
  'error.library.taskFolderLeftOut':
    'Its task was left out and nothing in the folder was changed: rename the folder, then rebuild or open the library again.',

  // electron/core/library/rebuild.ts and gallery/sidecar.ts (a sidecar or folder a rebuild or an
  // import left out: a copy of a task another one describes, or one that could not be read)
  'error.library.sameTaskSidecar': 'Another sidecar in the gallery describes the same task.',
  'error.library.sameTaskFolder': 'Another folder in the gallery describes the same task.',
  'error.library.sidecarChanged': 'The sidecar changed while the gallery was being rebuilt.',
  'error.library.unreadable':
    '{what, select, sidecar {The sidecar} other {The folder}} could not be read{code, select, none {} other { ({code})}}.',
  'error.library.sidecarNotJson': 'The sidecar is not valid JSON.',
  'error.library.notASidecar': 'The file is not a Pictor sidecar.',
  'error.library.sidecarNewer':
    'The sidecar was written by a newer version of Pictor (format {format}).',
  // {detail}: where in the record and what is wrong there, as the record's check says it.
  'error.library.recordInvalid': 'The task record in the sidecar is not valid ({detail}).',
  // electron/core/fs/regular-file.ts: a file not read as unsafe, after what it was read as.
  'error.library.unsafeFile':
    '{what, select, sidecar {The sidecar was not read. } folder {The folder was not read. } other {}}{why, select, link {It is a link, which Pictor does not follow.} outside {It is not inside the folder Pictor reads from: a folder on its way changed.} folder {It is a folder, not a file.} pipe {It is a pipe or socket, not a file.} tooLarge {It is larger than the {max} bytes Pictor reads.} grew {It changed while Pictor was reading it.} inlineName {It is not the name of an inline image.} placed {It changed while Pictor put it back: a folder on its way changed.} other {It is not a regular file.}}',

  // electron/core/library/archive/zip-source.ts (an archive refused as a whole)
  'error.library.archiveTooManyEntries':
    'Pictor did not import this archive: it has more than {max} entries. Nothing was written to the library.',
  'error.library.archiveNameNotUtf8':
    'Pictor did not import this archive: an entry name is not valid UTF-8. Nothing was written to the library.',
  'error.library.archiveNameCharset':
    'Pictor did not import this archive: an entry name is in an unknown character set. Nothing was written to the library.',
  'error.library.archiveEntryPath':
    'Pictor did not import this archive: an entry’s path is not allowed. {rule, select, empty {The path is empty or not valid text.} backslash {The path contains a backslash.} absolute {The path must be relative to the gallery folder.} leaves {The path leaves the gallery folder.} long {The path is too long.} tricky {The path holds invisible, control or look-alike characters.} nfc {The path is not in normalised (NFC) Unicode.} deep {The path is nested too deep.} dot {The path has an empty or "." part.} name {A name in the path is too long.} other {A name in the path is not allowed on every system (reserved name or character).}} Nothing was written to the library.',
  'error.library.archiveEntryEncrypted':
    'Pictor did not import this archive: an entry is encrypted. Nothing was written to the library.',
  'error.library.archiveEntryMethod':
    'Pictor did not import this archive: an entry uses a compression method Pictor does not read. Nothing was written to the library.',
  'error.library.archiveEntrySecondName':
    'Pictor did not import this archive: an entry carries a second name (a Unicode path field). Nothing was written to the library.',
  'error.library.archiveEntryLink':
    'Pictor did not import this archive: an entry is a symbolic link. Nothing was written to the library.',
  'error.library.archiveEntrySpecial':
    'Pictor did not import this archive: an entry is a special file. Nothing was written to the library.',
  'error.library.archiveEntryFolderAndFile':
    'Pictor did not import this archive: an entry is a folder and a file at once. Nothing was written to the library.',
  'error.library.archiveEntryZip64':
    'Pictor did not import this archive: an entry claims ZIP64 sizes without the ZIP64 field. Nothing was written to the library.',
  'error.library.archiveEntryBeyondEnd':
    'Pictor did not import this archive: an entry’s data would lie beyond the end of the archive. Nothing was written to the library.',
  'error.library.archiveFolderEntryData':
    'Pictor did not import this archive: a folder entry holds data. Nothing was written to the library.',
  'error.library.archiveEntryTooLarge':
    'Pictor did not import this archive: an entry is larger than the {max} bytes allowed. Nothing was written to the library.',
  'error.library.archiveEntryBomb':
    'Pictor did not import this archive: an entry is compressed too well to be an image (a zip bomb). Nothing was written to the library.',
  'error.library.archiveBomb':
    'Pictor did not import this archive: its entries together are compressed too well to be images (a zip bomb). Nothing was written to the library.',
  'error.library.archiveOverlap':
    'Pictor did not import this archive: two entries share the same data (an overlapping zip bomb). Nothing was written to the library.',
  'error.library.archiveNotZip':
    'Pictor did not import this archive: it is not a ZIP archive Pictor can read. Nothing was written to the library.',
  'error.library.archiveDuplicateName':
    'Pictor did not import this archive: two entries have the same name. Nothing was written to the library.',
  'error.library.archiveTooLarge':
    'Pictor did not import this archive: it would unpack to more than {max} bytes. Nothing was written to the library.',

  // electron/core/library/archive/folder-source.ts
  'error.library.folderTooManyFiles':
    'Pictor did not import this folder: it holds more than {max} files. Nothing was written to the library.',
  'error.library.folderUnreadable': 'The folder could not be read.',
  'error.library.folderUnreadableCode': 'The folder could not be read ({code}).',
  'error.library.folderTooDeep': 'The folder is nested too deep.',
  'error.library.entryIsLink': 'It is a link, which Pictor does not follow.',
  'error.library.entryNotRegular': 'It is not a regular file.',

  // electron/core/library/archive/import-library.ts and manifest.ts
  'error.library.sourceNotFileOrFolder':
    'Pictor did not import this archive or folder: it is neither a file nor a folder. Nothing was written to the library.',
  'error.library.sourceIsLibrary':
    'Pictor did not import this archive or folder: it is the library itself, or a folder inside or around it. Nothing was written to the library.',
  'error.library.archiveNoManifest':
    'Pictor did not import this archive: it has no {name}, so it is not a Pictor export. Nothing was written to the library.',
  'error.library.manifestTooLarge':
    'Pictor did not import {what, select, folder {this folder} other {this archive}}: its manifest is larger than {max} bytes or unreadable. Nothing was written to the library.',
  'error.library.manifestNotJson':
    'Pictor did not import {what, select, folder {this folder} other {this archive}}: The manifest is not valid JSON. Nothing was written to the library.',
  'error.library.manifestNotPictor':
    'Pictor did not import {what, select, folder {this folder} other {this archive}}: The manifest is not a Pictor export manifest. Nothing was written to the library.',
  'error.library.manifestNewer':
    'Pictor did not import {what, select, folder {this folder} other {this archive}}: The archive was made by a newer version of Pictor (format {version}). Nothing was written to the library.',
  'error.library.manifestTooManyFiles':
    'Pictor did not import {what, select, folder {this folder} other {this archive}}: The manifest lists more than {max} files. Nothing was written to the library.',
  'error.library.manifestInvalid':
    'Pictor did not import {what, select, folder {this folder} other {this archive}}: The manifest is not valid ({where, select, none {{problem}} other {{where}: {problem}}}). Nothing was written to the library.',
  'error.library.notEnoughSpace':
    'Pictor did not import {what, select, folder {this folder} other {this archive}}: it needs {needed} bytes free on the library’s disk, and only {free} are free. Free some space, then try again. Nothing was written to the library.',
  'error.library.manifestShape':
    'Pictor did not import {what, select, folder {this folder} other {this archive}}: The manifest is nested deeper, or holds more fields, than a Pictor export manifest can. Nothing was written to the library.',

  // electron/core/library/archive/import-image.ts, import-plan.ts, import-task.ts (files left out)
  'error.library.imageTooLarge': 'The image is larger than the {max} bytes allowed.',
  'error.library.imageNotAsNamed': 'The file does not hold the image its name says.',
  'error.library.imageUnreadable': 'The image could not be read from the source.',
  'error.library.imageNotChecked':
    'The image could not be checked (Pictor’s image worker stopped or took too long), so it was not imported. Import it again to try once more.',
  'error.library.imageShaMismatch': 'The image does not match the manifest (its SHA-256 differs).',
  'error.library.fileNotListed': 'The file is not listed in the manifest.',
  'error.library.fileSizeMismatch': 'The file is not the size the manifest says.',
  'error.library.fileNotLibrary': 'The file is not part of a Pictor library.',
  'error.library.imageNoSidecar': 'The image has no pictor.json beside it.',
  'error.library.xmpRefused':
    'The XMP file is not Pictor’s metadata for its image, or does not match the manifest; the image comes in without it.',
  'error.library.xmpWithoutImage': 'The XMP file has no image of its task beside it.',
  'error.library.sidecarUnreadable':
    'The sidecar could not be read, or is larger than a sidecar can be.',
  'error.library.sidecarShaMismatch':
    'The sidecar does not match the manifest (its SHA-256 differs).',
  'error.library.imageNotInRecord': 'The image is not in its task’s record.',
  'error.library.taskInProgress':
    'This task is still in progress in the library; import it again once it has finished.',
  'error.library.taskNoRoom': 'The task has no room for another image.',

  // electron/core/library/archive/import-records.ts (an imported image without its file)
  'error.library.importedFileMissing':
    'The image file was not in the imported library; Pictor will download it again.',
  'error.library.importedFileGone':
    'The image file was not in the imported library and there is no address to download it again.',
  // electron/core/gallery/file-words.ts (a task's error as a sidecar or archive said it is not shown)
  'error.library.importedTaskError':
    'This task ended with an error before it was imported. What the imported file says about that error is not shown: it comes from the file, not from Pictor.',

  // electron/core/library/archive/export-library.ts
  'error.library.exportNoTask': 'There is no task with this id in the history.',
  'error.library.exportFolderShared': 'Another task uses the same folder.',
  'error.library.exportNewerTask':
    'A newer version of Pictor made this task; this version cannot read it, so it is not in the archive. It stays in the library as it is.',
  'error.library.exportSignedImageKey':
    'This signed image (Content Credentials) was left out: its own metadata may carry an API key this computer holds, and Pictor cannot take the key out without breaking the signature. It stays in the library as it is.',
  'error.library.exportNotImage': 'The file is not a PNG, JPEG or WebP image.',
  'error.library.exportImageUnreadable': 'The image file could not be read.',
  'error.library.exportImageUnsafe': 'The image file could not be read. {reason}',
  'error.library.exportXmpUnreadable':
    'The XMP file beside the image could not be read; the image is in the archive without it.',
  'error.library.exportTargetExists':
    '{file} already exists; Pictor does not replace it. Choose another name.',
  // electron/core/library/archive/export-target.ts: the archive's own file could not be written
  // (the `problem` of core/fs/error-codes.ts `chosenPlaceParams`: its path's, else the disk's).
  'error.library.exportNotWritten': `Pictor could not write the archive {file}{problem, select, noFolder { because its folder does not exist ({code})} notFolder { because part of its path is a file, not a folder ({code})} nameTooLong { because its name is too long ({code})} other {}}${DISK_PROBLEM}. Nothing was exported there; {problem, select, full {${FREE_SPACE}} quota {${FREE_SPACE}} nameTooLong {choose a shorter name or another folder} other {choose another folder}}, then export again.`,
  // electron/core/fs/chosen-file.ts: a file the user chose in a save dialog (an image's "Save as…",
  // the cost ledger's CSV, a templates export) could not be written; the file there is as it was.
  'error.library.fileNotSaved': `Pictor could not save the file {file}{problem, select, noFolder { because its folder does not exist ({code})} notFolder { because part of its path is a file, not a folder ({code})} nameTooLong { because its name is too long ({code})} other {}}${DISK_PROBLEM}. Nothing was changed there; {problem, select, full {${FREE_SPACE}} quota {${FREE_SPACE}} nameTooLong {choose a shorter name or another folder} other {choose another folder}}, then try again.`,
  // electron/core/batch/export-images.ts: the folder chosen for a copy of images cannot take a file.
  'error.library.exportImagesStopped': `Pictor stopped copying images into {folder}{problem, select, noFolder { because that folder does not exist ({code})} notFolder { because part of its path is a file, not a folder ({code})} nameTooLong { because its path is too long ({code})} other {}}${DISK_PROBLEM}. {copied, plural, =0 {No image was copied there} one {# image was copied there before that} other {# images were copied there before that}}; {problem, select, full {${FREE_SPACE}} quota {${FREE_SPACE}} other {choose another folder}}, then export again.`,

  // electron/core/operations/core-operations.ts (busy), electron/ipc/archive-handlers.ts
  'error.library.busy':
    'An export or import is already running. Wait for it to finish, or cancel it.',
  'error.library.noDialogs': 'Export and import are not available here.',
  'error.library.exportCancelled': 'The export was cancelled; no archive was written.',

  // electron/ipc/ipc-main-bridge.ts
  'error.library.untrustedSender': 'This request did not come from Pictor’s window.',
  'error.library.badRequest': 'Pictor could not read that request.',

  // electron/ipc/task-command-handlers.ts (Copy as command on Windows)
  'error.library.commandHasControls':
    'The model’s name or an option of this request holds a line break or another control character, which no Windows command line can carry, so no command was copied (a prompt is carried, escaped). Take the character out of the model or the option, then copy again.',
  'error.library.tooManyRequests':
    'Too many requests at once: Pictor is still working on earlier ones, and did not take this one. Try again in a moment.',

  // electron/core/library/archive/archive-errors.ts (the library's disk refused a write)
  'error.library.importStoppedDisk': `Pictor stopped the import: it could not write into the library${DISK_PROBLEM}. The tasks imported before stay in the library whole, and nothing half-copied is left. Free some space or make the library’s disk writable, then import again to finish.`,
} as const;
