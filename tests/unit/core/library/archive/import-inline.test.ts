/**
 * An imported record whose image came inline and was not saved yet: its address is the
 * `inline:<sha256>` token of a spool file in the source's task folder, which an import never
 * carries (nor should: it is not the library, and the source is anyone's). The image comes in as
 * one with nothing to download again, not as a download that waits and then finds nothing; a
 * spool file the source holds beside it is not brought in.
 */
import { createHash } from 'node:crypto';
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { sidecarText } from '../../../../../electron/core/gallery/sidecar';
import { sentence } from '../../../../../shared/i18n/sentence';
import type { TaskRecord } from '../../../../../shared/domain/task-record';
import { filesUnder } from '../../../../support/files';
import { makeImage } from '../../../../support/gallery-helpers';
import { addTask, importInto, useLibraries } from './library-fixture';

const library = useLibraries();

describe('importing a record whose image came inline', () => {
  it('takes it as an image with no address to download again, and leaves the spool behind', async () => {
    const from = await library();
    const task = await addTask(from, ['png']);
    const bytes = await makeImage('png', 8, 8);
    const sha = createHash('sha256').update(bytes).digest('hex');
    const crafted: TaskRecord = {
      ...task,
      images: [
        ...task.images,
        { index: 1, url: `inline:${sha}`, state: 'pending', attempts: 0, favourite: false },
      ],
    };
    const folder = join(from.root, task.folder ?? '');
    await writeFile(join(folder, 'pictor.json'), sidecarText(crafted));
    await mkdir(join(folder, '.inline'));
    await writeFile(join(folder, '.inline', sha), bytes);

    const to = await library();
    await importInto(to, from.root);
    const [imported] = to.history.list().items;
    expect(imported?.images[0]?.state).toBe('saved');
    expect(imported?.images[1]).toMatchObject({
      state: 'invalid',
      errorSentence: sentence('error.library.importedFileGone'),
    });
    expect((await filesUnder(to.root)).filter((file) => file.includes('.inline'))).toEqual([]);
  });
});
