/**
 * Every file and folder the app's code creates says its mode. Node's defaults are 0666 for a
 * file and 0777 for a folder, less the umask: under a umask of 000 (a shell or a service manager
 * set so) a gallery's `.thumbs` folder was 0777 and its images 0666
 * (tests/hardening/filesystem/written-modes.test.ts runs a whole library so). This finds, in
 * electron/ and shared/ (the build scripts aside), a `mkdir`, `writeFile`, `appendFile`,
 * `createWriteStream` or `mkdtemp`-free creation whose arguments name no mode, and an `open` that
 * may create (flags with `w`, `a`, `x` or O_CREAT) given no third argument.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, repositoryFiles } from '../../support/source-files';

/** Calls whose arguments must name a mode (`mode:` in an options object). */
const NEEDS_MODE_OPTION =
  /(?<![.\w])(mkdir|mkdirSync|writeFile|writeFileSync|appendFile|appendFileSync|createWriteStream)\(/g;
/** `open` and `openSync` as functions (not a method such as `archive.open()`). */
const OPEN_CALL = /(?<![.\w])(open|openSync)\(/g;

/** The text between the parenthesis at `start` (just after it) and its match. */
function argumentsAt(text: string, start: number): string {
  let depth = 1;
  for (let at = start; at < text.length; at += 1) {
    const char = text[at];
    if (char === '(' || char === '{' || char === '[') depth += 1;
    if (char === ')' || char === '}' || char === ']') depth -= 1;
    if (depth === 0) return text.slice(start, at);
  }
  return text.slice(start);
}

/** The top-level arguments of an argument list. */
function splitArguments(list: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let from = 0;
  for (let at = 0; at < list.length; at += 1) {
    const char = list[at];
    if (char === '(' || char === '{' || char === '[') depth += 1;
    if (char === ')' || char === '}' || char === ']') depth -= 1;
    if (char === ',' && depth === 0) {
      parts.push(list.slice(from, at).trim());
      from = at + 1;
    }
  }
  const last = list.slice(from).trim();
  if (last !== '') parts.push(last);
  return parts;
}

const CREATING_FLAGS = /^['"`][^'"`]*[wax][^'"`]*['"`]$|O_CREAT|CREATE|NEW_FILE|OPEN_FLAGS/;

/** The calls in `text` that create without a mode, as `name(arguments)`. */
function creationsWithoutMode(text: string): string[] {
  const found: string[] = [];
  for (const match of text.matchAll(NEEDS_MODE_OPTION)) {
    const args = argumentsAt(text, match.index + match[0].length);
    if (!/\bmode\b/.test(args)) found.push(`${match[1]}(${args})`);
  }
  for (const match of text.matchAll(OPEN_CALL)) {
    const args = splitArguments(argumentsAt(text, match.index + match[0].length));
    const flags = args[1];
    if (flags !== undefined && CREATING_FLAGS.test(flags) && args.length < 3) {
      found.push(`${match[1]}(${args.join(', ')})`);
    }
  }
  return found;
}

function sourceFiles(): string[] {
  return repositoryFiles(['electron', 'shared'], /\.tsx?$/).filter(
    (file) => !file.startsWith('electron/build/'),
  );
}

describe('what the app creates', () => {
  it('says the mode of every file and folder it makes', () => {
    const files = sourceFiles();
    expect(files.length).toBeGreaterThan(300);
    const found = files.flatMap((file) =>
      creationsWithoutMode(readFileSync(join(REPO_ROOT, file), 'utf8')).map(
        (call) => `${file}: ${call.replace(/\s+/g, ' ')}`,
      ),
    );
    expect(found).toEqual([]);
  });

  it('finds a creation without a mode, and lets one with a mode or a read pass', () => {
    for (const text of [
      'await mkdir(join(folder, THUMBS_DIR), { recursive: true });',
      'mkdirSync(dir);',
      'await writeFile(file, bytes);',
      "createWriteStream(part, { flags: 'wx' })",
      "const out = await open(target, 'wx');",
      "await open(this.paths.edited, 'wx+')",
      'openSync(file, constants.O_WRONLY | constants.O_CREAT)',
    ]) {
      expect(creationsWithoutMode(text), text).toHaveLength(1);
    }
    for (const text of [
      'await mkdir(folder, { recursive: true, mode: PRIVATE_FOLDER_MODE });',
      'await writeFile(file, bytes, { mode: 0o600 });',
      "await open(target, 'wx', GALLERY_FILE_MODE);",
      "await open(file, 'r');",
      'await open(file, OPEN_FLAGS, PRIVATE_FILE_MODE);',
      'await handle.writeFile(data);',
      'await task.sidecar.open();',
      "await open(path, 'r+');",
    ]) {
      expect(creationsWithoutMode(text), text).toEqual([]);
    }
  });
});
