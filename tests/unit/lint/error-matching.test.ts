/**
 * Errors are matched with `instanceof`, never by name (STYLE.md): a name string misses every
 * subclass, survives the rename of the class it names, and once named a class that did not exist.
 * This scans electron/ for the forms a name match takes.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, repositoryFiles } from '../../support/source-files';

/** Every class that is an Error, by the `class X extends Y` chains in `texts`. */
function errorClasses(texts: readonly string[]): Set<string> {
  const parents = new Map<string, string>();
  for (const text of texts) {
    for (const [, name, parent] of text.matchAll(/\bclass (\w+) extends (\w+)/g)) {
      if (name && parent) parents.set(name, parent);
    }
  }
  const isError = (name: string, seen = new Set<string>()): boolean => {
    if (name === 'Error' || (/^[A-Z]\w*Error$/.test(name) && !parents.has(name))) return true;
    const parent = parents.get(name);
    if (parent === undefined || seen.has(name)) return false;
    seen.add(name);
    return isError(parent, seen);
  };
  return new Set([...parents.keys()].filter((name) => isError(name)));
}

/** The lines of `text` that match an error by its name, with why. */
function nameMatches(text: string, classes: ReadonlySet<string>): string[] {
  const found: string[] = [];
  text.split('\n').forEach((line, index) => {
    const where = `line ${index + 1}: ${line.trim()}`;
    if (/\bconstructor\.name\b/.test(line)) found.push(`constructor.name, ${where}`);
    if (
      /\.name\s*[!=]==?\s*['"`]\w*(Error|Failure)['"`]/.test(line) ||
      /['"`]\w*(Error|Failure)['"`]\s*[!=]==?\s*[\w.]*\.name\b/.test(line)
    ) {
      found.push(`a name compared with a string, ${where}`);
    }
    // An error class's own name in quotes, other than where the class sets its `name`: a list
    // of names, a switch case, a map key.
    const setsName = /\bname(: string)?\s*=\s*['"`]/.test(line);
    for (const [, quoted] of line.matchAll(/['"`]([A-Z]\w*)['"`]/g)) {
      if (quoted && classes.has(quoted) && !setsName) found.push(`"${quoted}" quoted, ${where}`);
    }
  });
  return found;
}

describe('errors are matched by class, not by name', () => {
  const files = repositoryFiles(['electron'], /\.tsx?$/);
  const texts = new Map(files.map((file) => [file, readFileSync(join(REPO_ROOT, file), 'utf8')]));
  const classes = errorClasses([...texts.values()]);

  it('knows the error classes of electron/', () => {
    for (const name of ['UserFacingError', 'HistoryError', 'GalleryMoveError', 'UsageError']) {
      expect(classes).toContain(name);
    }
    expect(classes).not.toContain('TaskEngine');
  });

  it.each([
    "const USER_FACING = new Set([\n  'EngineInputError',\n  'UserFacingError',\n]);",
    "if (error instanceof Error && error.name === 'SettingsError') {",
    "if ('KeyVaultError' !== error.name) return;",
    "if (error.name === 'SomeFutureError') return;",
    'const kind = error.constructor.name;',
    "switch (error.name) {\n  case 'HistoryError':\n}",
  ])('finds a name match in %s', (code) => {
    expect(nameMatches(code, classes)).not.toEqual([]);
  });

  it.each([
    "override readonly name = 'HistoryError';",
    "override readonly name: string = 'GalleryPathError';",
    "this.name = 'UnsafeFileError';",
    "if (command.name === 'help') return;",
    'if (error instanceof HistoryError) return;',
  ])('allows %s', (code) => {
    expect(nameMatches(code, classes)).toEqual([]);
  });

  it('no file under electron/ matches an error by its name', () => {
    const found = [...texts].flatMap(([file, text]) =>
      nameMatches(text, classes).map((match) => `${file}, ${match}`),
    );
    expect(found).toEqual([]);
  });
});
