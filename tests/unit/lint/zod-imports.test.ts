/**
 * Every module of the main bundle imports zod in a form electron/build/zod-shaken.ts makes
 * direct: `import { z } from 'zod';`, `import { z as name } from 'zod';`, or a type import (erased).
 * Another form (`import { z, type ZodType } from 'zod'`, a default import, a re-export) would keep
 * zod's entry and its whole namespace object in the bundle, ~420 KB more for every command of the
 * CLI to load, and no other test would say why. The renderer is built by Vite and is not read here.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, repositoryFiles } from '../../support/source-files';

const SHAKEN = /^import \{ z(?: as \w+)? \} from 'zod';$/;
const TYPE_ONLY = /^import type \{[^}]*\} from 'zod';$/;
/** Any statement that names zod's entry as its source. */
const FROM_ZOD = /^[^\n]*\bfrom 'zod'[^\n]*$|^import 'zod'/gm;

describe('zod imports of the main bundle', () => {
  it('are each in a form the bundle can shake', () => {
    const files = repositoryFiles(['electron', 'shared'], /\.tsx?$/);
    const found = files.flatMap((file) =>
      [...readFileSync(path.join(REPO_ROOT, file), 'utf8').matchAll(FROM_ZOD)].map(([line]) => ({
        file,
        line: line.trim(),
      })),
    );
    // Comments naming the forms (zod-shaken.ts's own) are not imports.
    const imports = found.filter(
      ({ line }) => line.startsWith('import') || line.startsWith('export'),
    );
    expect(imports.length).toBeGreaterThan(50);
    const others = imports.filter(({ line }) => !SHAKEN.test(line) && !TYPE_ONLY.test(line));
    expect(others).toEqual([]);
  });
});
