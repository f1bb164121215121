import { configDefaults, defineConfig } from 'vitest/config';
import { UNTIL } from './tests/support/waits.ts';

/** `expect.poll` waits on its condition as long as `vi.waitFor(…, UNTIL)` does (tests/support/waits.ts). */
const expectations = { poll: UNTIL };

export default defineConfig({
  test: {
    reporters: ['default', ['json', { outputFile: 'test-results/vitest.json' }]],
    // Vitest runs one file at a time on 2 cores by default (cores - 1), and most files here wait
    // on child processes, loopback HTTP, a browser or the disk: the whole run took 18 min with
    // the load average under 2. Two files at a time keep both cores busy; the suite is written
    // to hold at any load (manual clocks, conditions with far deadlines, counted work).
    maxWorkers: 2,
    projects: [
      {
        test: {
          name: 'unit',
          expect: expectations,
          include: ['tests/unit/**/*.test.ts', 'tests/unit/**/*.test.tsx'],
          // The renderer's tests need a DOM: they run in the `renderer` project below.
          exclude: [...configDefaults.exclude, 'tests/unit/renderer/**'],
          environment: 'node',
          testTimeout: 15_000,
        },
      },
      {
        test: {
          name: 'renderer',
          expect: expectations,
          include: ['tests/unit/renderer/**/*.test.ts', 'tests/unit/renderer/**/*.test.tsx'],
          environment: 'jsdom',
          setupFiles: ['tests/unit/renderer/setup.ts'],
          testTimeout: 15_000,
        },
      },
      {
        test: {
          name: 'integration',
          expect: expectations,
          include: ['tests/integration/**/*.test.ts'],
          // The CLI and the demo service bundled once for the run (tests/support/node-entries.ts).
          globalSetup: ['tests/support/node-entries-setup.ts'],
          environment: 'node',
          testTimeout: 60_000,
          hookTimeout: 30_000,
        },
      },
      {
        // Faults, crashes, hostile input and the key's safety. `npm run soak` runs the
        // same files at a larger size (PICTOR_SOAK=1).
        test: {
          name: 'hardening',
          expect: expectations,
          include: ['tests/hardening/**/*.test.ts'],
          environment: 'node',
          setupFiles: ['tests/hardening/support/fast-check-seed.ts'],
          testTimeout: 180_000,
          hookTimeout: 60_000,
        },
      },
      {
        // Builds the app and runs electron-builder in beforeAll (about half a minute on 2 cores).
        test: {
          name: 'packaging',
          include: ['tests/packaging/**/*.test.ts'],
          // One `npm run build` for every file, before any of them packs.
          globalSetup: ['tests/packaging/global-setup.ts'],
          environment: 'node',
          testTimeout: 30_000,
          hookTimeout: 240_000,
        },
      },
    ],
  },
});
