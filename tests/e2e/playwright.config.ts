/**
 * The end-to-end journeys (tests/e2e/specs): two tests at a time, any two (each test starts its
 * own app and demo service on free ports, with its own profile folder and browser contexts in its
 * worker's one Chromium, harness/chromium-host.ts; on 2 cores one file at a time took 6.4 min of a
 * fresh clone's CI, two 5.0 min). Fully parallel: a file's tests go to whichever worker is free,
 * so a file of ten tests (20-layout, 111 s in the quiet run) no longer holds one worker while the
 * other idles at the end; a file's beforeAll (its demo process) then runs for each of its tests.
 * No retries, JSON results in <repo>/test-results/playwright.json for .ci/count-results.mjs.
 */
import { defineConfig } from '@playwright/test';

// eslint-disable-next-line no-restricted-syntax -- Playwright reads the config's default export
export default defineConfig({
  testDir: 'specs',
  testMatch: '**/*.spec.ts',
  fullyParallel: true,
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
