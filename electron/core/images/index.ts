/**
 * The images module's face (electron/core/images/): its doors are the exports below, the only names
 * other modules and the fronts import from it. Image headers, sniffing and the image engine's jobs.
 *
 * - Images go through one check (`electron/core/images/image-check.ts`) wherever Pictor takes one
 *   in (download, the thumbnails made later, library import): first a header check in TypeScript
 *   (`image-header.ts`: PNG IHDR with the EXIF orientation of its first eXIf chunk before the image
 *   data, JPEG SOF0–15 by a bounded marker walk with the first EXIF orientation, WebP
 *   VP8/VP8L/VP8X), a few ranges read on a budget, with the pixel limit, so no decoder ever sees a
 *   refused header or a pixel bomb; then an `ImageEngine` (`electron/ports/image-engine.ts`)
 *   decodes the whole file and makes the WebP thumbnail; then its answer is checked
 *   (`engine-answer.ts`: the decoded size must be the header's oriented size, the thumbnail one
 *   whole RIFF/WEBP within the byte and side limits). The host picks the engine and hands it to the
 *   core: the app uses Chromium's own codecs in a hidden sandboxed image renderer (its adapter is
 *   wired in `host/app-images.ts`, and in `main.ts` for the installed app run as `pictor`, whose
 *   `self-test` checks that renderer); plain-Node hosts (the CLI from a checkout, tests, the bench)
 *   use native sharp (`adapters/image-engines/sharp-native-engine.ts`, loaded on first use, never
 *   packed: no libvips meets Electron's GLib); where neither runs, `header-only` saves the image
 *   with its XMP, sized from its header, its thumbnail marked pending
 *   (`ImageRecord.thumbnailPending`); the app makes pending thumbnails whenever it lists the
 *   gallery with an engine that decodes (`core/download/pending-thumbnails.ts`), and says so once
 *   (the CLI on its output, the app in a notice; tiles show a placeholder). Animated PNG and WebP
 *   are kept, sized by their canvas, thumbnailed from the first frame. Rebuild reads sizes with the
 *   header check only; an import puts every image through the whole check and keeps the thumbnail
 *   it made (pending only where no engine decodes). Conversions (clipboard PNG, drag icon) and the
 *   demo's pictures go through the same engine. The renderer loads images through
 *   `pictor-gallery://`, restricted to the gallery folder, never `file://`.
 *
 * - The image renderer (`electron/image-renderer/`, `core/images/renderer-jobs.ts`,
 *   `adapters/chromium-image-engine.ts`) is the app's image engine: Chromium's own codecs in one
 *   hidden `BrowserWindow` (`show: false`, sandboxed, context-isolated, no Node, background
 *   throttling off) on an in-memory session partition of its own (`pictor-images`). Its preload
 *   does one thing: it hands the page the one `MessagePort` the main process sends once the page
 *   has loaded. The page comes from the app scheme on that partition only, under its own policy
 *   (`default-src 'none'; script-src 'self' 'wasm-unsafe-eval'; worker-src 'self'; connect-src
 *   'self' pictor-image:; img-src blob:`, the last for SVG drawn through an `<img>`;
 *   `'wasm-unsafe-eval'` and `connect-src 'self'` only so its Content Credentials worker can fetch
 *   and compile c2pa-rs's module from the page's own folder: WebAssembly compilation, no `eval`);
 *   every other request, permission, download, navigation and window is refused. Dedicated workers
 *   decode every pixel and resize; the page encodes each thumbnail's WebP from the bitmap a worker
 *   transferred (`HTMLCanvasElement.toDataURL`: no Blob, whose bytes the browser process, main's
 *   in Electron, would copy in and back out); the page checks each image's header size against
 *   the job and its own pixel ceiling first. A job's bytes
 *   are streamed from its file by `pictor-image://job/<token>` (a scheme handled on that partition
 *   only; 256-bit tokens, each served once): the main process's code never reads a whole image. The
 *   bytes (in the format main's header check read, named in the job) are read straight into a
 *   buffer of the worker's own, of the declared length, and decoded there by WebCodecs'
 *   `ImageDecoder`, so the browser process (in Electron, the main process) holds nothing of them; a
 *   JPEG larger than its thumbnail is decoded reduced, at the fewest of libjpeg's eighths that
 *   cover the thumbnail (sharp's shrink-on-load), and an upright YUV frame (a JPEG decoded whole, a
 *   plain lossy WebP) is converted to RGBA by `VideoFrame.copyTo` into a buffer the worker keeps,
 *   since Chromium's own drawing of such a frame holds fresh memory in the worker each time (a
 *   turned one is still drawn by Chromium, and counted). Only the small encoded thumbnail passes
 *   through a Blob, released when its worker ends, which it does once it has made Chromium hold 24
 *   MiB: the images it read and the YUV frames Chromium drew for it. A PNG's thumbnail is byte for
 *   byte what Chromium's decode of a Blob makes, a JPEG's or WebP's within the thumbnails' fidelity
 *   bound of it, every EXIF orientation included
 *   (`tests/integration/image-renderer/own-buffer.test.ts`). The main process parses every answer
 *   (zod), sends two jobs at a time, gives each a time limit on the clock port and cancels it in
 *   the page (which ends that worker) when it overruns or is aborted; when the renderer dies or
 *   hangs, the jobs it held run again one at a time on a new renderer and a job that was alone
 *   fails as `crashed`; the window closes after a minute idle and opens again with the next job.
 *   Tests and the journeys' Chromium host run the same page in Debian's Chromium
 *   (`tests/support/image-page-stand.ts`).
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
export { jpegMarkerAt, type MarkerProblem } from './jpeg-markers';
export {
  boxHeader,
  JpegJumbfBox,
  type JpegJumbfSegment,
  jpegJumbfSegment,
  JUMBF_PROBE_BYTES,
  opensC2paStore,
} from './jumbf-box';
export { metadataCarriesKey, type MetadataKeyScrubber, withoutKeyMetadata } from './metadata-keys';
export { metadataOutline } from './metadata-outline';
export { PNG_BIT_DEPTHS } from './png-header';
export type { JobAnswer } from './renderer-answers';
export { RendererImageEngine } from './renderer-image-engine';
export type { RendererJobSpec } from './renderer-jobs';
