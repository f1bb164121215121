/**
 * The one way a test changes what belongs to its whole process (an environment variable, a
 * listener for the process's escaped errors, a module in Node's require cache) and has it undone:
 * each change registers its undo with vitest's `onTestFinished` before it is made, so it is undone
 * when the test ends, also when the test or a set-up after the change failed, the changes of one
 * test last made first undone. Called outside a test (while the file is collected, in a beforeAll)
 * it throws and changes nothing. tests/support/module-isolation.ts does not count this file's own
 * text against a file that imports it: what it changes, the next file in a shared process never
 * sees.
 */
import { createRequire } from 'node:module';
import { onTestFinished } from 'vitest';

/** Sets the environment variable `name` to `value` until the running test ends. */
export function setEnvForTest(name: string, value: string): void {
  const before = process.env[name];
  onTestFinished(() => {
    if (before === undefined) Reflect.deleteProperty(process.env, name);
    else process.env[name] = before;
  });
  process.env[name] = value;
}

/** Escaped errors the process may report to a test's listener. */
type ProcessEscape = 'uncaughtException' | 'unhandledRejection';

/** Listens for the process's `event` until the running test ends. */
export function onProcessForTest(event: ProcessEscape, listener: (reason: unknown) => void): void {
  const emitter: NodeJS.EventEmitter = process;
  onTestFinished(() => void emitter.off(event, listener));
  emitter.on(event, listener);
}

/**
 * Puts `exports` into Node's require cache as the module `id` (a resolved file name) until the
 * running test ends, when the entry it replaced, if any, comes back.
 */
export function requireCacheForTest(id: string, exports: unknown): void {
  const { cache } = createRequire(import.meta.url);
  const before = cache[id];
  onTestFinished(() => {
    if (before) cache[id] = before;
    else Reflect.deleteProperty(cache, id);
  });
  cache[id] = {
    id,
    filename: id,
    loaded: true,
    exports,
    children: [],
    paths: [],
  } as unknown as NodeJS.Module;
}
