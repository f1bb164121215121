/**
 * Runs once before the journeys: builds the app (renderer, main, preload) with the release's
 * settings into a temporary folder, or reuses and checks the one PICTOR_TEST_BUILD_DIR names
 * (tests/support/test-build.ts; a development build is refused), says which host runs them, and
 * returns the teardown that removes a build made here. Playwright starts its workers after this,
 * so they inherit PICTOR_TEST_BUILD_DIR.
 */
import { acquireTestBuild } from '../support/test-build';
import { hostLine } from './harness/host';

// eslint-disable-next-line no-restricted-syntax -- Playwright calls the module's default export
export default async function globalSetup(): Promise<() => Promise<void>> {
  const acquired = await acquireTestBuild();
  console.log(`e2e ${acquired.line}`);
  console.log(hostLine());
  return () => acquired.release();
}
