/**
 * Setup of the integration and hardening projects, run again for every test file, also when the
 * files of a process share their modules (`integration` and `hardening` in vitest.config.ts): what the helpers the file
 * imported started (a core, demo services) ends after each of its tests, last registered first,
 * after the file's own afterEach hooks (tests/support/after-each-test.ts); a spy the file left on
 * a shared module (a prototype, `globalThis.fetch`) is taken off when it ends, before the next
 * file in the process uses that module.
 */
import { afterAll, afterEach, vi } from 'vitest';
import { endTest } from './after-each-test';

afterEach(async () => {
  await endTest();
});

afterAll(() => {
  vi.restoreAllMocks();
});
