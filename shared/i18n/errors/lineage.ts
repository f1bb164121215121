/**
 * Sentences of an image's lineage (merged into shared/i18n/main-messages.ts): keys
 * `error.lineage.*`, ICU MessageFormat, typographic apostrophes (’), placeholders for every value.
 * electron/core/lineage/ (an image's stack), electron/core/library/archive/ (the input files an
 * archive carries) and electron/core/library/rebuild.ts (a task whose input file is gone).
 */
export const lineageErrors = {
  // electron/ipc/stack-handlers.ts: the page asked for the stack of an image the library lacks.
  'error.lineage.noImage':
    'This image is no longer in the library, so it has no stack to show. Reload the gallery.',
  // archive/import-inputs.ts: an input file of an archive or folder, refused alone.
  'error.lineage.inputName':
    'This file in inputs/ is not named as Pictor names a stored input (its SHA-256, then .png, .jpg or .webp): it was left out.',
  'error.lineage.inputMismatch':
    'This input file’s bytes do not match the SHA-256 it is named by: it was left out. Tasks made from it keep their record, without the file.',
  'error.lineage.inputNotImage':
    'This input file is not the image its name says: it was left out. Tasks made from it keep their record, without the file.',
  'error.lineage.inputTooLarge':
    'This input file is larger than Pictor keeps ({max, number} bytes): it was left out.',
  'error.lineage.inputUnreadable':
    'This input file could not be read: it was left out. Tasks made from it keep their record, without the file.',
  // archive/export-inputs.ts: an input a task names that the library does not have.
  'error.lineage.inputMissing':
    'The input image this task was made from ({sha256}) is no longer in the library’s inputs folder: the task is exported without it.',
} as const;
