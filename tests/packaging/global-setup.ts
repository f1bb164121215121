/**
 * Builds the app once (`npm run build`: renderer, main, image worker, preload) before any
 * packaging test file runs, with the release's settings, into a temporary folder the test files
 * pack (tests/support/test-build.ts); removed when the run ends. The files run in parallel and
 * each packs what is built; building in each would race.
 *
 * It also makes the folder where each release target is packed once for all of them
 * (shared-packs.ts), removed with the build.
 *
 * The working tree's dist/ and dist-electron/ are listed (name, size, modification time) before
 * the build; test-build.test.ts lists them again once it has run: a test run must not touch them.
 */
import type { TestProject } from 'vitest/node';
import { acquireTestBuild, listWorkingTreeBuild, type FileStamp } from '../support/test-build';
import { removeFolder, tempFolder } from '../support/temp-folders';

declare module 'vitest' {
  export interface ProvidedContext {
    /** The test build's folder (tests/support/test-build.ts). */
    pictorTestBuild: string;
    /** The working tree's dist/ and dist-electron/ before that build. */
    pictorWorkingTreeBefore: FileStamp[];
    /** Where each release target is packed once for every file (shared-packs.ts). */
    pictorPacks: string;
  }
}

export async function setup(project: TestProject): Promise<() => Promise<void>> {
  project.provide('pictorWorkingTreeBefore', listWorkingTreeBuild());
  const acquired = await acquireTestBuild();
  project.provide('pictorTestBuild', acquired.build.root);
  console.info(`packaging: ${acquired.line}`);
  const packs = await tempFolder('packs');
  project.provide('pictorPacks', packs);
  return async () => {
    await removeFolder(packs);
    await acquired.release();
  };
}
