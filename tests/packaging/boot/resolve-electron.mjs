/**
 * Loaded with `--import` into the boot test's child process: `electron` resolves to the stand-in
 * (electron-stand-in.ts, run by tsx), every other module the packed app imports resolves from the
 * packed app's own files.
 */
import { registerHooks } from 'node:module';

const STAND_IN = new URL('./electron-stand-in.ts', import.meta.url).href;

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'electron') return { url: STAND_IN, shortCircuit: true, format: 'module' };
    return nextResolve(specifier, context);
  },
});
