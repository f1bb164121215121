/** Where the end-to-end harness finds the repository and the built app. */
import { fileURLToPath } from 'node:url';
import { join, resolve } from 'node:path';

/** The repository root (tests/e2e/harness → ../../..). */
export const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..');

/** The built renderer bundle (`npm run build:renderer`). */
export const RENDERER_DIST = join(REPO_ROOT, 'dist', 'renderer');

/** The built main process and preload (`npm run build:electron`). */
export const ELECTRON_DIST = join(REPO_ROOT, 'dist-electron');
