/**
 * Runs once before the journeys: builds the app (renderer, main, preload) with the release's
 * settings into a temporary folder, or reuses and checks the one PICTOR_TEST_BUILD_DIR names
 * (tests/support/test-build.ts; a development build is refused), says which host runs them, and
 * returns the teardown that removes a build made here. It also bundles the demo service
 * (tests/support/node-entries.ts), or reuses the bundles npm test built for its phases. Playwright starts its workers after this, so they inherit
 * PICTOR_TEST_BUILD_DIR and PICTOR_TEST_NODE_ENTRIES.
 */
import { acquireTestEntries } from '../support/node-entries';
import { acquireTestBuild } from '../support/test-build';
import { hostLine } from './harness/host';

// eslint-disable-next-line no-restricted-syntax -- Playwright calls the module's default export
export default async function globalSetup(): Promise<() => Promise<void>> {
  const [acquired, entries] = await Promise.all([acquireTestBuild(), acquireTestEntries()]);
  console.log(`e2e ${acquired.line}`);
  console.log(hostLine());
  return async () => {
    await Promise.all([acquired.release(), entries.release()]);
  };
}
