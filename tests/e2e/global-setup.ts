/**
 * Runs once before the journeys: builds the app (renderer, main, preload) and says which host
 * runs them.
 */
import { buildApp } from './harness/build';
import { hostLine } from './harness/host';

// eslint-disable-next-line no-restricted-syntax -- Playwright calls the module's default export
export default function globalSetup(): void {
  console.log(buildApp());
  console.log(hostLine());
}
