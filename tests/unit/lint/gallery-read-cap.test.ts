/**
 * No code in electron/ reads a file up to `MAX_IMAGE_BYTES` (2^40): that figure bounds what a
 * record may state, not what main reads. A read of a gallery or library image takes
 * `GALLERY_MAX_IMAGE_BYTES`, the largest image Pictor saves, so a crafted file of several GB in a
 * gallery folder is refused before it is read (tests/hardening/hostile/gallery-file-cap.test.ts
 * runs the page's ways in). The kept-key-id sweep's rewrite of a saved image took the record's
 * bound once; this finds any file in electron/ that imports the record's figure from limits.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, repositoryFiles } from '../../support/source-files';

/** An import of `MAX_IMAGE_BYTES` itself from shared/domain/limits (not a local constant). */
const IMPORTS_RECORD_BOUND =
  /import\s*(?:type\s*)?\{[^}]*\bMAX_IMAGE_BYTES\b[^}]*\}\s*from\s*'[./]*shared\/domain\/limits'/;

describe('reads of image files in main', () => {
  it('never take the record bound (2^40) as a read cap', () => {
    const offenders = repositoryFiles(['electron'], /\.ts$/).filter((file) =>
      IMPORTS_RECORD_BOUND.test(readFileSync(join(REPO_ROOT, file), 'utf8')),
    );
    expect(offenders).toEqual([]);
  });

  it('finds the import it looks for', () => {
    expect(
      IMPORTS_RECORD_BOUND.test("import { MAX_IMAGE_BYTES } from '../../../shared/domain/limits';"),
    ).toBe(true);
    expect(
      IMPORTS_RECORD_BOUND.test(
        "import { GALLERY_MAX_IMAGE_BYTES } from '../../../shared/domain/limits';",
      ),
    ).toBe(false);
  });
});
