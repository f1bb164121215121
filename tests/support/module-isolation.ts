/**
 * Which unit files need a module registry of their own (vitest.config.ts). The `unit` project runs
 * its files one after another in each worker thread with the modules they import loaded once for
 * the thread (`isolate: false`): importing the core anew for every file was most of that project's
 * time. A file that changes what the next file in its thread would get runs in `unit-isolated`
 * instead, with fresh modules: it mocks or resets modules, stubs a global or an environment
 * variable, assigns one, or installs fake timers. tests/unit/lint/projects-cover.test.ts checks
 * every such file runs isolated.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join, relative } from 'node:path';

/** What a file does that a later file in the same thread would see. */
const CHANGES_SHARED_STATE = [
  /\bvi\.(?:mock|doMock|unmock|doUnmock|resetModules|stubGlobal|stubEnv|useFakeTimers)\s*\(/,
  /\bprocess\.env(?:\.\w+|\[[^\]]+\])\s*=(?!=)/,
  /\bdelete\s+process\.env\b/,
  /\bglobalThis(?:\.\w+|\[[^\]]+\])\s*=(?!=)/,
  /\bObject\.(?:defineProperty|assign)\(\s*(?:globalThis|process\.env)\b/,
  // Said by the file: it counts what a module holds for the whole process (a budget, a pool),
  // which a file before it in the thread could still hold.
  /@own-modules\b/,
];

/** Whether a test file's text changes state a later file in its thread would share. */
export function needsOwnModules(text: string): boolean {
  return CHANGES_SHARED_STATE.some((pattern) => pattern.test(text));
}

/**
 * Whether a renderer test runs the app's real main side in its own thread (tests/support/
 * wired-api.ts, whichever way it starts it: a test's own main, the file's shared one, the
 * gallery's wired harness): the core is plain Node and must see Node's globals (its buffers, timers), which
 * a VM context's DOM globals are not.
 */
export function runsMainSide(text: string): boolean {
  return /\b(?:startWiredApp|startWiredApi|startInterceptedApi|sharedWiredMain|wiredGallery)\b/.test(
    text,
  );
}

/**
 * The test files under `dir` (relative to `root`, with `/`) whose text matches `which` (default:
 * those that need their own modules), for a project's `include`.
 */
export function filesNeedingOwnModules(
  root: string,
  dir: string,
  which: (text: string) => boolean = needsOwnModules,
): string[] {
  return readdirSync(join(root, dir), { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.test\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => which(readFileSync(file, 'utf8')))
    .map((file) => relative(root, file).split('\\').join('/'))
    .sort();
}
