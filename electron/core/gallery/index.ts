/** The gallery's public surface; see gallery.ts. */
export {
  Gallery,
  GalleryPathError,
  type DownloadOutcome,
  type GalleryOptions,
  type RebuildResult,
  type Skipped,
} from './gallery';
