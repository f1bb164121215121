/**
 * A rebuild's numbers and the words it skips a copy of a task with (rebuild.ts), said once here:
 * the kept-id redaction reads copies by the same limits and finds them again by those words
 * (rebuild-kept-copies.ts).
 */

/** The download's default cap: a bigger file was not saved by Pictor. */
export const MAX_IMAGE_FILE_BYTES = 64 * 1024 * 1024;
/** Image files read at once: whole for their metadata (recover.ts), a few ranges for a header. */
export const IMAGE_READS = 2;
/** Why a copy of a task's sidecar (a copied folder) is skipped: its path is the sidecar's. */
export const SAME_TASK_SIDECAR = 'Another sidecar in the gallery describes the same task.';
/** Why a copy of a task's folder without its sidecar is skipped: its path is the folder's. */
export const SAME_TASK_FOLDER = 'Another folder in the gallery describes the same task.';
