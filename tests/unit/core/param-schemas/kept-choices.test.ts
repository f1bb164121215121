/**
 * A choice whose values read alike as text (`1` and `"1"`, one listed twice) is no choice a
 * command line or the form's select can name apart: the first was sent whichever was copied or
 * picked. A fetched schema drops such an option (fetched-param-schema.test.ts); the kept file,
 * written by another hand, leaves such an entry out as it leaves out any other broken one.
 */
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { ParamSchemaBook } from '../../../../electron/core/param-schemas/param-schema-book';
import { TempFolders } from '../../../support/temp-folders';

const dirs = new TempFolders();
afterEach(async () => {
  await dirs.removeAll();
});

function entry(model: string, values: readonly (string | number)[]) {
  return {
    provider: 'pictor',
    model,
    origin: 'file',
    at: 1,
    params: { style: { type: 'enum', values } },
  };
}

describe('the kept options’ choices', () => {
  it('leave out an entry whose choices read alike as text, and keep the others', async () => {
    const dataDir = await dirs.make('kept-choices');
    const models = [
      entry('alike', [1, '1']),
      entry('twice', ['vivid', 'vivid']),
      entry('apart', [1, '2', 'vivid']),
    ];
    await writeFile(join(dataDir, 'model-options.json'), JSON.stringify({ version: 1, models }));
    const book = new ParamSchemaBook(dataDir, () => 2);
    await book.open();
    expect(book.kept().map((kept) => kept.model)).toEqual(['apart']);
  });
});
