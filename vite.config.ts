import { defineConfig } from 'vite';

// The renderer bundle (React + zustand), loaded by the Electron window and by the end-to-end
// harness in Chromium. `base: './'` keeps asset URLs relative, as the packaged app needs.
export default defineConfig({
  root: 'renderer',
  base: './',
  build: {
    outDir: '../dist/renderer',
    emptyOutDir: true,
    // Chromium of Electron 45 (and of Debian's Chromium the end-to-end journeys use).
    target: 'chrome153',
    sourcemap: true,
  },
});
