/**
 * The renderer's Content-Security-Policy, in one place: the app protocol sends it as a header and
 * the end-to-end harness reuses it, so both hosts run the page under the same rules.
 */
import { GALLERY_SCHEME } from '../../../shared/ipc/api';

/**
 * Directive by directive. Scripts only from the bundle (no inline script, no eval); images only
 * from the bundle, the gallery protocol and `data:`; nothing may frame the page, post a form or
 * change the base URL. `style-src 'unsafe-inline'` lets components and libraries inject
 * `<style>`/style attributes; styles cannot run code, and script-src stays strict.
 */
export const RENDERER_CSP_DIRECTIVES: Readonly<Record<string, readonly string[]>> = {
  'default-src': ["'none'"],
  'script-src': ["'self'"],
  'style-src': ["'self'", "'unsafe-inline'"],
  'img-src': ["'self'", `${GALLERY_SCHEME}:`, 'data:'],
  'font-src': ["'self'"],
  'connect-src': ["'self'"],
  'base-uri': ["'none'"],
  'form-action': ["'none'"],
  'frame-ancestors': ["'none'"],
  'object-src': ["'none'"],
};

/** The policy as one header value. */
export const RENDERER_CSP = Object.entries(RENDERER_CSP_DIRECTIVES)
  .map(([name, sources]) => `${name} ${sources.join(' ')}`)
  .join('; ');
