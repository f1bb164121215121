/**
 * The gallery module (electron/core/gallery/), its face: the one file other modules and the fronts
 * import from it. The folder as storage: `Gallery` (root, paths, task folders, sidecars), its
 * layout, its images' metadata (`metadata/`).
 */
export { Gallery } from './gallery';
export {
  distinctImages,
  editImage,
  findImage,
  GalleryImageError,
  type ImageFiles,
  type ImageRecords,
  type ImageRef,
  imagesByTask,
  savedFile,
} from './gallery-images';
export {
  INLINE_DIR,
  MAX_RESTORE_NAMES,
  SIDECAR_NAME,
  THUMBS_DIR,
  imageFileCandidates,
  imageNames,
  taskFolderName,
  xmpSidecarName,
} from './gallery-layout';
export { saveImageCopy } from './image-copy';
export {
  IMAGE_FILE_ROLES,
  type ImageFile,
  imageFilesOf,
  isCache,
  isXmpSidecar,
  withImageFiles,
  withoutFile,
  withoutImageFiles,
} from './image-files';
export { type C2paPresence, detectC2paInOpenFile } from './metadata/c2pa-detect';
export { verdictWithoutReading } from './metadata/c2pa-verdict';
export { embedProvenanceInFile, pngProvenanceChunks, provenanceStep } from './metadata/embed';
export {
  embedTriageInFile,
  kindOfImage,
  planTriageEmbed,
  type TriageEmbed,
} from './metadata/embed-triage';
export { type ImageInfo, inspectImage, NotAnImageError } from './metadata/image-info';
export { writePlanInto } from './metadata/plan-writer';
export { SIGNATURE, pngChunk } from './metadata/png-meta';
export { PngProvenanceStream } from './metadata/png-stream';
export { provenanceOf } from './metadata/provenance';
export { readImageProvenance, readPacketProvenance } from './metadata/read';
export { isImageName, recoverFromImages } from './metadata/recover';
export { readWebpCanvas } from './metadata/webp-meta';
export type { ImageProvenance } from './metadata/xmp-packet';
export { MAX_XMP_SIDECAR_BYTES } from './metadata/xmp-sidecar';
export {
  readSidecarIfAny,
  sidecarPlan,
  syncXmpSidecars,
  xmpSidecarOf,
} from './metadata/xmp-sidecar-sync';
export { isTriagePacket } from './metadata/xmp-triage';
export { MAX_SIDECAR_BYTES, parseSidecar, sidecarText, summariseSidecar } from './sidecar';
