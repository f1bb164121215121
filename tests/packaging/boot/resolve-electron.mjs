/**
 * Loaded with `--import` into the boot test's child process, before the packed main bundle:
 * `electron` resolves to the stand-in (electron-stand-in.mjs, plain JavaScript), every other
 * module the packed app imports resolves from the packed app's own files, and the process looks
 * like a packaged app's: `process.argv` is `[binary, …args]` with no app path and no
 * `process.defaultApp`, and `process.resourcesPath` is the packed resources folder.
 */
import { registerHooks } from 'node:module';

const STAND_IN = new URL('./electron-stand-in.mjs', import.meta.url).href;

// `node main.js <args>` → `[binary, <args>]`. Node has already read the entry point's path.
process.argv.splice(1, 1);
process.resourcesPath = process.env['PICTOR_BOOT_RESOURCES'];

registerHooks({
  resolve(specifier, context, nextResolve) {
    if (specifier === 'electron') return { url: STAND_IN, shortCircuit: true, format: 'module' };
    return nextResolve(specifier, context);
  },
});
