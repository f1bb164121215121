import path from 'node:path';
import { defineConfig } from 'vite';

// The renderer bundle (React + zustand), loaded by the Electron window and by the end-to-end
// harness in Chromium. `base: './'` keeps asset URLs relative, as the packaged app needs.
// PICTOR_BUILD_DIR moves the whole build (this bundle in <dir>/dist/renderer, the main process
// in <dir>/dist-electron) out of the working tree, with nothing else changed: the tests build
// there (tests/support/test-build.ts), so `npm start` and electron-builder keep dist/ to themselves.
const buildDir = process.env.PICTOR_BUILD_DIR;

export default defineConfig({
  root: 'renderer',
  base: './',
  build: {
    outDir: buildDir ? path.resolve(buildDir, 'dist', 'renderer') : '../dist/renderer',
    emptyOutDir: true,
    // Chromium of Electron 45 (and of Debian's Chromium the end-to-end journeys use).
    target: 'chrome153',
    sourcemap: true,
  },
});
