/**
 * The end-to-end journeys (tests/e2e/specs): two files at a time (each test starts its own app
 * and demo service on free ports, with its own profile folder and browser contexts in its
 * worker's one Chromium, harness/chromium-host.ts; on 2 cores one file at a time took 6.4 min of a
 * fresh clone's CI, two 5.0 min), no retries, JSON results in <repo>/test-results/playwright.json
 * for .ci/count-results.mjs.
 */
import { defineConfig } from '@playwright/test';

// eslint-disable-next-line no-restricted-syntax -- Playwright reads the config's default export
export default defineConfig({
  testDir: 'specs',
  testMatch: '**/*.spec.ts',
  fullyParallel: false,
  workers: 2,
  retries: 0,
  timeout: 90_000,
  expect: { timeout: 15_000 },
  forbidOnly: Boolean(process.env.CI),
  outputDir: '../../test-results/e2e-artifacts',
  reporter: [['list'], ['json', { outputFile: '../../test-results/playwright.json' }]],
  globalSetup: './global-setup.ts',
  use: { trace: 'off', screenshot: 'off', video: 'off' },
});
