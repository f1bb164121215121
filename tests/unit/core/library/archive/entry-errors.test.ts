/**
 * An archive entry that inflates past the size it declares fails as soon as its first chunk is
 * decompressed, which can be before its reader starts reading (the reader first opens the file
 * it copies into). The error must wait for that reader: thrown at the process it would end the
 * main process for a crafted archive.
 */
import { stat, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { DEFAULT_ARCHIVE_LIMITS } from '../../../../../electron/core/library/archive/archive-limits';
import { readBounded } from '../../../../../electron/core/library/archive/stream-copy';
import { openZipSource } from '../../../../../electron/core/library/archive/zip-source';
import { craftZip } from './crafted-zip';
import { TempFolders } from '../../../../support/temp-folders';

const dirs = new TempFolders();
afterEach(async () => {
  await dirs.removeAll();
});

/** Turns of the event loop until `condition` holds. */
async function until(condition: () => boolean): Promise<void> {
  while (!condition()) await new Promise<void>((resolve) => setImmediate(resolve));
}

describe('an archive entry that holds more than it declares', () => {
  it('keeps its error for its reader when it fails before anyone reads it', async () => {
    const dir = await dirs.make('entry-errors');
    const file = join(dir, 'crafted.zip');
    const data = Buffer.alloc(5 * 1024 * 1024, 7);
    await writeFile(file, craftZip([{ name: 'pictor-export.json', data, uncompressedSize: 100 }]));
    const source = await openZipSource(file, (await stat(file)).size, DEFAULT_ARCHIVE_LIMITS);
    try {
      const [entry] = source.files;
      const stream = await entry!.open();
      // Nobody reads yet: the entry inflates on its own and fails.
      await until(() => stream.errored !== null);
      await expect(readBounded(stream, 1 << 20)).rejects.toThrow(/too many bytes/);
    } finally {
      await source.close();
    }
  });
});
