/**
 * The typecheck's record of the dead exports (tests/support/dead-exports-cache.ts) counts only
 * for the inputs it was found in: a changed, added or removed file of the program, a changed
 * tsconfig.json or lock file, or a record that is not one, and the lint test finds them anew.
 */
import { mkdirSync, unlinkSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import {
  DEAD_EXPORTS_RECORD,
  recordDeadExports,
  recordedDeadExports,
  recordedFact,
} from '../../support/dead-exports-cache';
import { projectConfig, type DeadExport } from '../../support/dead-exports';
import { removeFolderSync, tempFolderSync } from '../../support/temp-folders';

const DEAD: DeadExport[] = [{ id: 'shared/a.ts#unusedThing', kind: 'unused' }];
const FACTS = { channelCost: ['shared/a.ts'], addedService: ['shared/b.ts'] };

let root = '';
beforeEach(() => {
  root = tempFolderSync('dead-record');
  mkdirSync(join(root, 'shared'));
  writeFileSync(join(root, 'tsconfig.json'), JSON.stringify({ include: ['shared'] }));
  writeFileSync(join(root, 'package-lock.json'), '{}');
  writeFileSync(join(root, 'shared', 'a.ts'), 'export const unusedThing = 1;\n');
  writeFileSync(join(root, 'shared', 'b.ts'), 'export const used = 2;\n');
  recordDeadExports(root, projectConfig(root).fileNames, DEAD, FACTS);
});
afterEach(() => removeFolderSync(root));

describe('the dead exports the typecheck recorded', () => {
  it('are taken for the very inputs they were found in, with the other facts', () => {
    expect(recordedDeadExports(root)).toEqual(DEAD);
    expect(recordedFact(root, 'channelCost')).toEqual(FACTS.channelCost);
    expect(recordedFact(root, 'addedService')).toEqual(FACTS.addedService);
  });

  it.each([
    ['a file of the program changed', () => writeFileSync(join(root, 'shared', 'b.ts'), '\n')],
    ['a file added', () => writeFileSync(join(root, 'shared', 'c.ts'), 'export {};\n')],
    ['a file removed', () => unlinkSync(join(root, 'shared', 'b.ts'))],
    ['tsconfig.json changed', () => writeFileSync(join(root, 'tsconfig.json'), '{}')],
    ['the lock file changed', () => writeFileSync(join(root, 'package-lock.json'), '{"a":1}')],
    ['the record is not one', () => writeFileSync(join(root, DEAD_EXPORTS_RECORD), '{"dead":')],
  ])('are not taken when %s', (_, change) => {
    change();
    expect(recordedDeadExports(root)).toBeUndefined();
    expect(recordedFact(root, 'channelCost')).toBeUndefined();
    expect(recordedFact(root, 'addedService')).toBeUndefined();
  });

  it('are not taken when there is no record', () => {
    unlinkSync(join(root, DEAD_EXPORTS_RECORD));
    expect(recordedDeadExports(root)).toBeUndefined();
  });
});
