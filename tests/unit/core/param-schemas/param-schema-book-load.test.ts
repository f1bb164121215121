/**
 * Loading param-schema-book.ts builds no zod schema: the library's parts load it at every start (a
 * one-record command of the CLI too), and only opening a book that has a file reads with them
 * (shared/domain/lazy-schema.ts). The recorder (tests/support/zod-builds.ts) sees each schema zod
 * builds; what the module's own imports build at their load is theirs, so they are loaded first.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { readFileSync } from 'node:fs';
import { describe, expect, it, vi } from 'vitest';
import type { openParamSchemaBook } from '../../../../electron/core/param-schemas/param-schema-book';
import { schemasBuiltBy } from '../../../support/zod-builds';
import { removeFolder, tempFolder } from '../../../support/temp-folders';
import { REPO_ROOT } from '../../../support/source-files';

const BOOK = join(REPO_ROOT, 'electron/core/param-schemas/param-schema-book.ts');
/** A value import's module (`import type` is erased: it loads nothing). */
const VALUE_IMPORT = /^import (?!type )[^;]*? from '([^']+)';$/gms;

describe('the book of model options', () => {
  it('builds no zod schema when its module loads; opening a book with a file builds them once', async () => {
    vi.resetModules();
    for (const [, from = ''] of readFileSync(BOOK, 'utf8').matchAll(VALUE_IMPORT)) {
      await import(
        /* @vite-ignore */ from.startsWith('.') ? new URL(from, `file://${BOOK}`).pathname : from
      );
    }
    let loaded: { openParamSchemaBook: typeof openParamSchemaBook } | undefined;
    const atLoad = await schemasBuiltBy(async () => {
      loaded = await import('../../../../electron/core/param-schemas/param-schema-book');
    });
    expect(atLoad).toEqual([]);
    // The check itself: a book read from its file builds the schemas, the second read none.
    const dir = await tempFolder('book-load');
    try {
      const file = {
        version: 1,
        models: [{ provider: 'fal', model: 'm', origin: 'file', at: 1, params: {} }],
      };
      await writeFile(join(dir, 'model-options.json'), JSON.stringify(file));
      const first = await schemasBuiltBy(() => loaded!.openParamSchemaBook(dir));
      expect(first.length).toBeGreaterThan(0);
      expect(await schemasBuiltBy(() => loaded!.openParamSchemaBook(dir))).toEqual([]);
    } finally {
      await removeFolder(dir);
      vi.resetModules();
    }
  });
});
