/**
 * The preload of one-record-start.test.ts's CLI processes (`node --import <this file>`): writes
 * `load <url>` for each module loaded, `worker <url>` for each thread, `builtin crypto` when Node's
 * crypto code was loaded by any means, `require made` for each `createRequire` call, `built <type>`
 * for each zod schema built, `schema <name>` for each zod object schema built with the task
 * record's or the request's keys, `table invisible` when the key-echo views make their table of
 * invisible characters and `expression <which>` for each costly expression built, to fd 3. zod
 * gives every schema it builds its internals with one `Object.defineProperty(schema, '_zod', …)`;
 * the def an object schema is built from holds its shape. It replaces globals of the child it is
 * preloaded into, never of the test's own process: a file of its own (not text inside the test)
 * so the test file shares the integration project's process (tests/support/module-isolation.ts
 * reads a test's text and its helpers it imports).
 */
import module, { registerHooks, syncBuiltinESMExports } from 'node:module';
import { writeSync } from 'node:fs';
import threads from 'node:worker_threads';

const say = (line) => writeSync(3, line + '\n');
// Node's crypto code, however it was reached (an import, `process.getBuiltinModule`, the global
// `crypto`), which the module hook above does not see: `builtin crypto` when the process ends.
process.on('exit', () => {
  if (process.moduleLoadList.some((name) => /^NativeModule (internal\/)?crypto\b/.test(name))) {
    say('builtin crypto');
  }
});
registerHooks({
  load(url, context, next) {
    say('load ' + url);
    return next(url, context);
  },
});
// A `require` made for a module (each bundle chunk's banner, electron/build/build-electron.ts).
const makeRequire = module.createRequire;
module.createRequire = function (...args) {
  say('require made');
  return makeRequire.apply(this, args);
};
const Started = threads.Worker;
threads.Worker = class extends Started {
  constructor(url, options) {
    say('worker ' + String(url));
    super(url, options);
  }
};
syncBuiltinESMExports();
const define = Object.defineProperty;
Object.defineProperty = function (target, key, descriptor) {
  if (key === '_zod' && descriptor?.value?.def !== undefined)
    say('built ' + descriptor.value.def.type);
  const shape =
    key === '_zod' && descriptor?.value?.def?.type === 'object'
      ? descriptor.value.def.shape
      : undefined;
  if (shape !== undefined && 'localId' in shape && 'request' in shape && 'images' in shape) {
    say('schema task record');
  }
  if (shape !== undefined && 'prompt' in shape && 'inputs' in shape && 'workflow' in shape) {
    say('schema request');
  }
  return define(target, key, descriptor);
};
// The key-echo views' table of characters that show nothing (invisible-characters.ts) is made
// from one class of them, `[…\p{Default_Ignorable_Code_Point}]`, built with `new RegExp`.
const Pattern = RegExp;
globalThis.RegExp = new Proxy(Pattern, {
  construct(target, args, made) {
    const source = String(args[0]);
    // Not the task id rule's class (TASK_ID_CONTROL, which also names \p{Cf}): one expression,
    // compiled when first run, not a table made over every code unit.
    const table = source.startsWith('[') && source.endsWith('Default_Ignorable_Code_Point}]');
    if (table && !source.includes('\\p{Cf}')) {
      say('table invisible');
    }
    // The expressions whose property classes V8 builds from ICU's tables at some ms of CPU: the
    // rule of a user's word (control-characters.ts invisibleInWords) and a script's test
    // (shown-host.ts).
    if (source.includes('\\p{Extended_Pictographic}')) say('expression word rule');
    if (source.includes('\\p{scx=')) say('expression script');
    return Reflect.construct(target, args, made);
  },
});
