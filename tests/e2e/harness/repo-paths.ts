/**
 * Where the end-to-end harness finds the repository. The built app is not here: it is the run's
 * test build, in a temporary folder (tests/support/test-build.ts).
 */
import { fileURLToPath } from 'node:url';
import { resolve } from 'node:path';

/** The repository root (tests/e2e/harness → ../../..). */
export const REPO_ROOT = resolve(fileURLToPath(new URL('.', import.meta.url)), '..', '..', '..');
