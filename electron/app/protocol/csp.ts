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

/** Directives as one header value. */
function policyOf(directives: Readonly<Record<string, readonly string[]>>): string {
  return Object.entries(directives)
    .map(([name, sources]) => `${name} ${sources.join(' ')}`)
    .join('; ');
}

/** The policy as one header value. */
export const RENDERER_CSP = policyOf(RENDERER_CSP_DIRECTIVES);

/**
 * The policy of every answer that is not a file of the app's own pages: a gallery image, a 304,
 * a refusal. As a subresource (an <img>) it changes nothing; shown as a document, by any way a
 * later change might open one, it allows nothing and runs sandboxed (no script, an opaque origin).
 */
export const INERT_CSP = "default-src 'none'; sandbox";

/**
 * The image renderer's policy (electron/image-renderer). Scripts and workers only from its own
 * folder; `connect-src` only the image protocol, where each job's bytes wait behind a one-time
 * address (a test serves them from a loopback origin instead: `bytesSource`), and the page's own
 * folder, for the one file fetched there: c2pa-rs's WebAssembly module. `'wasm-unsafe-eval'`
 * (this page only, never the app's window) lets the Content Credentials worker compile that
 * module: it allows WebAssembly compilation and nothing else (no `eval`, no `new Function`,
 * no inline script), and the only module the page can fetch is the one built beside it, since
 * the session refuses every address but the page's folder and the jobs' (the page has no
 * network). Verifying there keeps hostile manifests out of the main process. `img-src blob:`
 * only because an SVG is drawn through an <img> from a blob: URL the page made itself (workers have
 * no SVG decoder, and a blob: image renders in secure static mode: no script, no fetch). No
 * style, font, frame, form or media source: the page shows nothing.
 */
export function imageRendererCsp(bytesSource: string): string {
  return policyOf({
    'default-src': ["'none'"],
    'script-src': ["'self'", "'wasm-unsafe-eval'"],
    'worker-src': ["'self'"],
    'connect-src': ["'self'", bytesSource],
    'img-src': ['blob:'],
    'base-uri': ["'none'"],
    'form-action': ["'none'"],
    'frame-ancestors': ["'none'"],
  });
}
