/**
 * The gallery module's second face (declared in eslint.config.js's CORE_FACES): the gallery's
 * folder and sidecar writes and the images' references alone, which the triage actions and the
 * CLI's triage commands use (cli/library-triage.ts) without the image checks, provenance
 * embedding and Content Credentials detection the module's index.ts also passes on.
 */
export { Gallery } from './gallery';
export { distinctImages, type ImageRef, imagesByTask } from './gallery-images';
