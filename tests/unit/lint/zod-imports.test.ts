/**
 * Every module of the main bundle imports zod in a form electron/build/zod-shaken.ts makes
 * direct: `import { z } from 'zod';`, `import { z as name } from 'zod';`, or a type import (erased).
 * Another form (`import { z, type ZodType } from 'zod'`, a default import, a re-export) would keep
 * zod's entry and its whole namespace object in the bundle, ~420 KB more for every command of the
 * CLI to load, and no other test would say why. The renderer is built by Vite and is not read here.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..', '..');
const SHAKEN = /^import \{ z(?: as \w+)? \} from 'zod';$/;
const TYPE_ONLY = /^import type \{[^}]*\} from 'zod';$/;
/** Any statement that names zod's entry as its source. */
const FROM_ZOD = /^[^\n]*\bfrom 'zod'[^\n]*$|^import 'zod'/gm;

function sources(folder: string): string[] {
  return readdirSync(path.join(ROOT, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => /\.tsx?$/.test(file) && !file.includes('node_modules'))
    .map((file) => path.join(folder, file));
}

describe('zod imports of the main bundle', () => {
  it('are each in a form the bundle can shake', () => {
    const files = [...sources('electron'), ...sources('shared')];
    const found = files.flatMap((file) =>
      [...readFileSync(path.join(ROOT, file), 'utf8').matchAll(FROM_ZOD)].map(([line]) => ({
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
