/**
 * The images module (electron/core/images/), its face: the one file other modules and the fronts
 * import from it. Image headers, sniffing and the image engine's jobs.
 */
export { checkImageFile } from './image-check';
export { checkHeaderOfBytes, checkHeaderOfFile, type HeaderRefusal } from './image-header';
export { pngOfImage } from './image-png';
export {
  DESCRIBE_BYTES,
  describeNonImage,
  IMAGE_EXTENSION,
  IMAGE_MIME,
  type ImageKind,
  SNIFF_BYTES,
  sniffImage,
} from './image-sniff';
export { jpegMarkerAt } from './jpeg-markers';
export { PNG_BIT_DEPTHS } from './png-header';
export type { JobAnswer } from './renderer-answers';
export { RendererImageEngine } from './renderer-image-engine';
export type { RendererJobSpec } from './renderer-jobs';
