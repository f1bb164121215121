/**
 * A library made once for a test file, each test working on its own copy of its files: what the
 * same slow steps (commands run, an app started) would have left in a new folder, made once. The
 * template is never worked on itself, so no test sees what another did.
 */
import { cp } from 'node:fs/promises';
import { fileFolder } from './per-test';

/** Copies every file under `template` into the folder `into` (made if missing). */
export async function copyFolder(template: string, into: string): Promise<void> {
  await cp(template, into, { recursive: true });
}

/**
 * A temporary folder (`name` names it: temp-folders.ts) that `make` fills before the file's tests (its
 * beforeAll), removed after them (per-test.ts `fileFolder`); `copyInto` gives a test its own copy
 * of what is under it.
 */
export function folderTemplate(
  name: string,
  make: (folder: string) => Promise<void>,
): { readonly copyInto: (into: string) => Promise<void> } {
  const template = fileFolder(name, make);
  return { copyInto: (into) => copyFolder(template(), into) };
}
