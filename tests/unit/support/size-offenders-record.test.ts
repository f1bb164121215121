/**
 * The lint stage's record of the size offenders (tests/support/size-offenders-record.ts) counts
 * only for the inputs it was measured in: a changed, added or removed product file, a changed
 * eslint.config.js or lock file, or a record that is not one, and the lint test measures anew.
 */
import { mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  SIZE_OFFENDERS_RECORD,
  recordSizeOffenders,
  recordedSizeOffenders,
} from '../../support/size-offenders-record';
import type { SizeOffenders } from '../../support/size-offenders';
import { removeFolderSync, tempFolderSync } from '../../support/temp-folders';

const OFFENDERS: SizeOffenders = { 'shared/a.ts': { 'max-params': 5 } };

let root = '';
beforeEach(() => {
  root = tempFolderSync('size-record');
  mkdirSync(join(root, 'shared'));
  mkdirSync(join(root, 'renderer', 'store'), { recursive: true });
  writeFileSync(join(root, 'eslint.config.js'), 'export default [];\n');
  writeFileSync(join(root, 'package-lock.json'), '{}');
  writeFileSync(join(root, 'shared', 'a.ts'), 'export const a = 1;\n');
  writeFileSync(join(root, 'renderer', 'store', 'b.ts'), 'export const b = 2;\n');
  recordSizeOffenders(root, OFFENDERS);
});
afterEach(() => removeFolderSync(root));

describe('the size offenders the lint stage recorded', () => {
  it('are taken for the very inputs they were measured in', () => {
    expect(recordedSizeOffenders(root)).toEqual(OFFENDERS);
  });

  it.each([
    ['a product file changed', () => writeFileSync(join(root, 'renderer', 'store', 'b.ts'), '\n')],
    ['a product file added', () => writeFileSync(join(root, 'shared', 'c.ts'), 'export {};\n')],
    [
      'a product folder added',
      () => {
        mkdirSync(join(root, 'electron'));
        writeFileSync(join(root, 'electron', 'main.ts'), 'export {};\n');
      },
    ],
    ['a product file removed', () => unlinkSync(join(root, 'shared', 'a.ts'))],
    ['eslint.config.js changed', () => writeFileSync(join(root, 'eslint.config.js'), '')],
    ['the lock file changed', () => writeFileSync(join(root, 'package-lock.json'), '{"a":1}')],
    ['the record is not one', () => writeFileSync(join(root, SIZE_OFFENDERS_RECORD), '{"in":')],
  ])('are not taken when %s', (_, change) => {
    change();
    expect(recordedSizeOffenders(root)).toBeUndefined();
  });

  it('are not taken when there is no record', () => {
    unlinkSync(join(root, SIZE_OFFENDERS_RECORD));
    expect(recordedSizeOffenders(root)).toBeUndefined();
  });
});
