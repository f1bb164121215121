/**
 * Archives crafted to break out or blow up are refused as a whole, from their central directory,
 * before anything is inflated or written: the gallery holds no file afterwards, the history no
 * task, and the folder beside the gallery (where an escape would land) is untouched.
 */
import { readdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { ArchiveRefusedError } from '../../../../../electron/core/library/archive/archive-errors';
import type { ArchiveLimits } from '../../../../../electron/core/library/archive/archive-limits';
import { importLibrary } from '../../../../../electron/core/library/archive/import-library';
import { filesUnder } from '../../../../support/files';
import { craftZip, extraField, type CraftedEntry } from './crafted-zip';
import { exportEntries, manifestFor, taskFiles, writeZip, type ExportFile } from './crafted-export';
import { makeLibrary, type Library } from './library-fixture';
import { removeFolder } from '../../../../support/temp-folders';

let library: Library;
let files: ExportFile[];
beforeEach(async () => {
  library = await makeLibrary();
  files = (await taskFiles()).files;
});
afterEach(async () => {
  library.history.close();
  await removeFolder(library.dir);
});

async function expectRefused(
  entries: readonly CraftedEntry[] | Buffer,
  reason: RegExp,
  limits: Partial<ArchiveLimits> = {},
): Promise<void> {
  const path = Buffer.isBuffer(entries)
    ? join(library.dir, 'raw.zip')
    : await writeZip(library.dir, entries);
  if (Buffer.isBuffer(entries)) await writeFile(path, entries);
  const outcome = importLibrary({
    intake: library.intake,
    history: library.history,
    source: path,
    limits,
  });
  await expect(outcome).rejects.toBeInstanceOf(ArchiveRefusedError);
  await expect(outcome).rejects.toThrow(reason);
  expect(await filesUnder(library.root)).toEqual([]);
  expect(library.history.count()).toBe(0);
  // Nothing landed beside the gallery either, where an escaping path would point.
  const beside = (await filesUnder(library.dir)).map((file) => file.slice(library.dir.length + 1));
  expect(
    beside.filter((name) => !/^history\.sqlite(-wal|-shm)?$|^(raw|crafted)\.zip$/.test(name)),
  ).toEqual([]);
  await expect(readdir('/tmp/evil.png')).rejects.toThrow();
}

const evil = (name: string | Buffer, extra: Partial<CraftedEntry> = {}) =>
  exportEntries(files, [{ name, data: Buffer.from('boom'), ...extra }]);

describe('an archive refused as a whole', () => {
  it.each([
    ['a parent-folder path', '../evil.png', /leaves/],
    ['a path deep in parents', '2025/../../../evil.png', /leaves/],
    ['an absolute path', '/tmp/evil.png', /relative/],
    ['a drive letter', 'C:/Windows/evil.png', /relative/],
    ['a backslash', '2025\\..\\..\\evil.png', /backslash/],
    ['a NUL byte', 'evil.png\u0000.txt', /empty or not valid/],
    ['a right-to-left override', '2025/gnp.\u202eevil.png', /invisible, control or look-alike/],
    ['a full-width slash', '..\uff0f..\uff0fevil.png', /look-alike/],
    ['one-dot leaders for ..', '\u2024\u2024/evil.png', /look-alike/],
    ['a zero-width space', '2025/\u200bpictor.json', /look-alike/],
    ['a name not in NFC', '2025/cafe\u0301/pictor.json', /NFC/],
    ['a Windows device name', '2025/CON/pictor.json', /reserved/],
    ['an alternate data stream', '2025/image-1.png:hidden', /reserved/],
    ['an over-long name', `2025/${'a'.repeat(300)}.png`, /too long/],
    [
      'an over-long path',
      `${'abcdefgh/'.repeat(7)}${'b'.repeat(250)}/${'c'.repeat(250)}/${'d'.repeat(250)}/${'e'.repeat(250)}`,
      /too long/,
    ],
  ])('refuses %s', async (_label, name, reason) => {
    await expectRefused(evil(name), reason);
  });

  it('refuses a name in an unknown character set (no UTF-8 flag, bytes over 0x7f)', async () => {
    await expectRefused(
      evil(Buffer.from([0x61, 0x2f, 0xe9, 0x2e, 0x70, 0x6e, 0x67]), { flags: 0 }),
      /character set/,
    );
  });

  it('refuses a symbolic link entry (Unix mode in the external attributes)', async () => {
    await expectRefused(
      evil('2025/01/link/image-1.png', { data: Buffer.from('/etc/passwd'), unixMode: 0o120777 }),
      /symbolic link/,
    );
  });

  it('refuses a FIFO or device entry', async () => {
    await expectRefused(evil('2025/01/fifo', { unixMode: 0o010644 }), /special file/);
  });

  it('refuses duplicate names, also when they differ only in case', async () => {
    const [first] = files;
    await expectRefused(
      exportEntries(files, [{ name: first?.path ?? '', data: Buffer.from('second') }]),
      /same name/,
    );
    await expectRefused(
      exportEntries(files, [{ name: (first?.path ?? '').toUpperCase(), data: Buffer.from('x') }]),
      /same name/,
    );
  });

  it('refuses an encrypted entry', async () => {
    await expectRefused(evil('2025/secret.png', { flags: 0x801 }), /encrypted/);
  });

  it('refuses an entry carrying a second (Unicode path) name', async () => {
    await expectRefused(
      evil('2025/plain.png', {
        extra: extraField(0x7075, Buffer.from('\u0001....../../evil.png')),
      }),
      /second name/,
    );
  });

  it('refuses a compression method it does not read', async () => {
    await expectRefused(evil('2025/odd.png', { method: 12 }), /compression method/);
  });

  it('refuses a zip bomb: an entry that inflates a thousand times', async () => {
    await expectRefused(
      evil('2025/bomb/image-1.png', { data: Buffer.alloc(20 * 1024 * 1024) }),
      /zip bomb/,
    );
  });

  it('refuses an entry declared larger than an image may be (ZIP64 field claiming a terabyte)', async () => {
    const size = Buffer.alloc(16);
    size.writeBigUInt64LE(2n ** 40n, 0);
    size.writeBigUInt64LE(4n, 8);
    await expectRefused(
      evil('2025/huge/image-1.png', {
        uncompressedSize: 0xffffffff,
        compressedSize: 0xffffffff,
        extra: extraField(0x0001, size),
      }),
      /larger than/,
    );
  });

  it('refuses ZIP64 sizes without the ZIP64 field', async () => {
    await expectRefused(
      evil('2025/lie/image-1.png', { uncompressedSize: 0xffffffff, compressedSize: 0xffffffff }),
      /ZIP64/,
    );
  });

  it('refuses an entry whose data would lie past the end of the file', async () => {
    await expectRefused(
      evil('2025/past/image-1.png', {
        compressedSize: 50_000_000,
        uncompressedSize: 50_000_000,
        method: 0,
      }),
      /beyond the end/,
    );
  });

  it('refuses entries that share their data (the overlapping zip bomb)', async () => {
    const entries = exportEntries(files);
    await expectRefused(
      [
        ...entries,
        { name: 'copy/image-1.png', data: files[0]?.data ?? Buffer.alloc(0), sameDataAs: 0 },
      ],
      /same data/,
    );
  });

  it('refuses a manifest whose local header moves its data onto the next entry’s, saying so', async () => {
    // Its own refusal, not "larger than allowed or unreadable": the archive is crafted.
    const [manifest, ...rest] = exportEntries(files).reverse();
    if (!manifest) throw new Error('no manifest entry');
    await expectRefused(
      [{ ...manifest, method: 0, localExtraLength: 1000 }, ...rest.reverse()],
      /same data/,
    );
  });

  it('refuses more entries than allowed, and a directory that claims more than it holds', async () => {
    await expectRefused(
      exportEntries(files, [
        { name: 'a/', unixMode: 0o040755 },
        { name: 'b/', unixMode: 0o040755 },
      ]),
      /more than 4 entries/,
      { maxEntries: 4 },
    );
    await expectRefused(
      craftZip(exportEntries(files), { entryCount: 40 }),
      /not a ZIP archive Pictor can read/,
    );
  });

  it('refuses an archive that would unpack to more bytes than allowed in total', async () => {
    await expectRefused(exportEntries(files), /unpack to more than/, { maxTotalBytes: 200 });
  });

  it('refuses a manifest larger than allowed, even one that declares a small size', async () => {
    await expectRefused(exportEntries(files), /entry is larger/, { maxManifestBytes: 100 });
    const entries = exportEntries(files).map((entry) =>
      entry.name === 'pictor-export.json' ? { ...entry, uncompressedSize: 50 } : entry,
    );
    await expectRefused(entries, /manifest is larger than 100 bytes/, { maxManifestBytes: 100 });
  });

  it('refuses a manifest listing more files than allowed, or none at all, or one that is not JSON', async () => {
    const padded = [
      ...files,
      ...Array.from({ length: 8 }, (_, i) => ({ ...files[0]!, path: `pad/${i}.png` })),
    ];
    const listed = [
      ...files.map((file) => ({ name: file.path, data: file.data })),
      { name: 'pictor-export.json', data: manifestFor(padded) },
    ];
    await expectRefused(listed, /lists more than 5 files/, { maxEntries: 5 });
    await expectRefused(
      files.map((file) => ({ name: file.path, data: file.data })),
      /no pictor-export\.json/,
    );
    await expectRefused(
      [
        ...files.map((file) => ({ name: file.path, data: file.data })),
        { name: 'pictor-export.json', data: Buffer.from('{"format": ') },
      ],
      /not valid JSON/,
    );
  });

  it('refuses a file that is not a ZIP at all', async () => {
    await expectRefused(Buffer.from('<html>not a zip</html>'.repeat(10)), /not a ZIP archive/);
  });
});
