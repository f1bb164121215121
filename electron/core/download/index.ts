/**
 * The download module's face (electron/core/download/): its doors are the exports below, the only
 * names other modules and the fronts import from it. From a link or inline bytes to a fetched,
 * checked, stamped and placed file: `ImageIntake` (download, inline spool, thumbnails, the check of
 * a found or imported file).
 */
export { type DownloadOutcome, type FailedOutcome, lastAttempt } from './download-outcome';
export { withFoundCredentialsAll } from './found-credentials';
export type { ImageCheck, ImageCheckResult } from './image-finish';
export { IdleRelease } from './idle-release';
export { type ImageAttempt, ImageIntake } from './image-intake';
export type { KeyedImages } from './image-request';
export { PendingThumbnails } from './pending-thumbnails';
export { createPinnedFetch, systemResolver } from './pinned-fetch';
export { gatedTransports } from './gated-transports';
export { trustedContext } from './trusted-authorities';
export { placeNew } from './place-new';
