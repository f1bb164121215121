/**
 * The two custom schemes the window uses. The renderer bundle comes from `pictor-app://app/…`
 * and gallery images from `pictor-gallery://gallery/…`; neither the page nor its images ever
 * come from file://, so a page can never read an arbitrary file by naming it.
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
 * Privileges for `protocol.registerSchemesAsPrivileged`, which Electron accepts once, before
 * `ready`, so both schemes are listed here together.
 * - `standard`: real origins (`pictor-app://app`), relative URLs and CSP `'self'` work.
 * - `secure`: the page counts as a secure context; gallery images are not mixed content.
 * - `supportFetchAPI` on the app scheme only: the bundle may fetch its own assets.
 * Nothing bypasses CSP, and no service workers.
 */
export const PRIVILEGED_SCHEMES: CustomScheme[] = [
  { scheme: APP_SCHEME, privileges: { standard: true, secure: true, supportFetchAPI: true } },
  { scheme: GALLERY_SCHEME, privileges: { standard: true, secure: true } },
];
