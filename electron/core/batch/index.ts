/**
 * The batch module's face (electron/core/batch/): its doors are the exports below, the only names
 * other modules and the fronts import from it. Actions over many tasks or images.
 */
export { type BatchEngine, BatchTaskActions } from './batch-task-actions';
export { type CancelOutcome, TaskCancels } from './cancel-tasks';
export type { ExportGallery } from './export-copy';
export { exportChosenImages, exportImages, type ExportOutcome } from './export-images';
export {
  redactKeptKeyId,
  redactRefusedTrack,
  refusedForKeyInId,
  withTextsScrubbed,
} from './kept-key-id';
export { resend } from './resend';
export { type TemplatePlan, type TemplateRunInput, TemplateRuns } from './template-runs';
export { type MetadataWriter, metadataWriter } from './write-metadata';
