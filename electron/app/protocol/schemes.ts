/**
 * The custom schemes. The renderer bundle comes from `pictor-app://app/…` and gallery images from
 * `pictor-gallery://gallery/…`; neither the page nor its images ever come from file://, so a page
 * can never read an arbitrary file by naming it. The image renderer has its page on the app scheme
 * and its jobs' bytes on a scheme of its own, both only on its own session.
 */
import type { CustomScheme } from 'electron';
import { GALLERY_SCHEME } from '../../../shared/ipc/api';

/** Serves the built renderer (dist/renderer) only. */
export const APP_SCHEME = 'pictor-app';
export const APP_HOST = 'app';
/** What the window loads. */
export const APP_ENTRY_URL = `${APP_SCHEME}://${APP_HOST}/index.html`;

/** The only host the gallery scheme answers; `galleryUrl()` in shared/ipc/api builds its URLs. */
export const GALLERY_HOST = 'gallery';

/**
 * The image renderer's page, on the app scheme under a host of its own, served only on the image
 * renderer's session (adapters/chromium-image-engine.ts), never to the app's window.
 */
export const IMAGE_PAGE_HOST = 'images';
export const IMAGE_PAGE_URL = `${APP_SCHEME}://${IMAGE_PAGE_HOST}/index.html`;

/**
 * One image's bytes for the image renderer, `pictor-image://job/<one-time token>`: handled on the
 * image renderer's session only (core/images/image-job-sources.ts).
 */
export const IMAGE_SCHEME = 'pictor-image';
export const IMAGE_JOB_HOST = 'job';

/**
 * Privileges for `protocol.registerSchemesAsPrivileged`, which Electron accepts once, before
 * `ready`, so both schemes are listed here together.
 * - `standard`: real origins (`pictor-app://app`), relative URLs and CSP `'self'` work.
 * - `secure`: the page counts as a secure context; gallery images are not mixed content.
 * - `supportFetchAPI` on the app scheme: the bundle may fetch its own assets; and on the image
 *   scheme, with `corsEnabled`: the image page fetches and reads a job's bytes, which its
 *   response allows to the image page's origin only.
 * Nothing bypasses CSP, and no service workers.
 */
export const PRIVILEGED_SCHEMES: CustomScheme[] = [
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  { scheme: GALLERY_SCHEME, privileges: { standard: true, secure: true } },
  {
    scheme: IMAGE_SCHEME,
    privileges: { standard: true, secure: true, supportFetchAPI: true, corsEnabled: true },
  },
];
