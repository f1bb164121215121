/**
 * A rebuild of a gallery folder whose task folders are named as a crafted folder may name them
 * (a new line, an escape, a bidi override, a zero-width space, a name Windows reads otherwise)
 * and as real disks spell real names (NFD on macOS; two spellings, or two cases, side by side on
 * Linux). Real folders on disk: Linux takes any byte in a name but `/` and NUL. A task comes back
 * only when the window can show its images and an export can hold it; the others are left out
 * with their reason, their files untouched. Of names that are one on a folding disk, no task
 * takes another's place.
 */
import { mkdir, readFile, readdir, realpath, rm, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import sharp from 'sharp';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { sidecarText } from '../../../electron/core/gallery/sidecar';
import { rebuildFromFolder } from '../../../electron/core/library/rebuild';
import { pathRefusal, pathRuleSentence } from '../../../electron/core/library/archive/entry-path';
import { DEFAULT_ARCHIVE_LIMITS } from '../../../electron/core/library/archive/archive-limits';
import { parseRequestPath } from '../../../electron/app/protocol/request-path';
import { GALLERY_SCHEME, galleryUrl } from '../../../shared/ipc/api';
import { GALLERY_HOST } from '../../../electron/app/protocol/schemes';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { makeTaskRecord } from '../../support/task-records';
import { removeFolder, tempFolder } from '../../support/temp-folders';

const CREATED = Date.UTC(2024, 4, 17, 9, 5, 7);

let root: string;
let png: Buffer;

beforeEach(async () => {
  root = await realpath(await tempFolder('rebuild-names'));
  png ??= await sharp({ create: { width: 6, height: 4, channels: 3, background: '#0a0' } })
    .png()
    .toBuffer();
});

afterEach(async () => {
  await removeFolder(root);
});

function record(id: number, folder: string): TaskRecord {
  return makeTaskRecord(
    {
      localId: `c0ffee00-0000-4000-8000-${String(id).padStart(12, '0')}`,
      taskId: `task-${id}`,
      request: { prompt: `Task ${id}` },
      images: [
        {
          index: 0,
          url: `https://cdn.example.com/${id}.png`,
          state: 'pending',
          attempts: 0,
          favourite: false,
        },
      ],
      folder,
    },
    CREATED + id,
  );
}

/** The task's folder as the disk spells `folder`, with its sidecar and its one image. */
async function writeTask(task: TaskRecord, folder = task.folder ?? ''): Promise<void> {
  await mkdir(join(root, folder), { recursive: true });
  await writeFile(join(root, folder, 'pictor.json'), sidecarText(task));
  // Each task's image its own bytes: a task that took another's folder would show them.
  await writeFile(
    join(root, folder, 'image-1.png'),
    Buffer.concat([png, Buffer.from(task.localId)]),
  );
}

/** Whether the window serves the file (its protocol's own check) and an export could hold it. */
function shownAndExported(file: string): boolean {
  const url = galleryUrl(file, `${GALLERY_SCHEME}://${GALLERY_HOST}/`);
  const served = parseRequestPath(url, GALLERY_SCHEME, GALLERY_HOST).ok;
  return served && pathRefusal(file.normalize('NFC'), DEFAULT_ARCHIVE_LIMITS) === null;
}

/** Names only a crafted folder holds, each a segment of a task folder's path. */
const CRAFTED: ReadonlyArray<[string, string]> = [
  ['a new line', 'two\nlines'],
  ['a carriage return', 'back\rhere'],
  ['an escape', 'red\u001b[31m'],
  ['a DEL', 'del\u007f'],
  ['a C1 control', 'c1\u0085'],
  ['a tab', 'tab\there'],
  ['a bidi override', 'gnp\u202eexe'],
  ['a zero-width space', 'zero\u200bwidth'],
  ['a trailing dot', 'ends.'],
  ['a trailing space', 'ends '],
  ['a Windows device', 'CON'],
  ['a stream colon', 'a:b'],
];

describe('a rebuild takes a task folder only under a name the library can hold', () => {
  it('leaves out each crafted name with its reason, keeps the files, takes the others', async () => {
    const good = record(1, '2024/05/good');
    await writeTask(good);
    let id = 10;
    const crafted: TaskRecord[] = [];
    for (const [, name] of CRAFTED) {
      id += 1;
      crafted.push(record(id, `2024/05/${name}`));
    }
    // A crafted parent folder: the task beneath it has a plain name of its own.
    crafted.push(record(99, '2024/line\nbreak/plain'));
    for (const task of crafted) await writeTask(task);

    const { records, skipped } = await rebuildFromFolder(root);

    expect(records.map((task) => task.localId)).toEqual([good.localId]);
    expect(records.flatMap((task) => task.images.map((image) => image.state))).toEqual(['saved']);
    for (const task of records) {
      for (const image of task.images) expect(shownAndExported(image.file ?? '')).toBe(true);
    }
    const shown = crafted.map((task) => JSON.stringify(`${task.folder}/pictor.json`));
    expect(skipped.map((skip) => skip.path).sort()).toEqual([...shown].sort());
    for (const skip of skipped) {
      expect(skip.reason).toMatch(
        /^(The|A name in the) path .*Its task was left out and nothing in the folder was changed: rename the folder/,
      );
      // Escaped as a folder import shows a refused name: a summary's line is not broken by it
      // (what is left, DEL, C1, bidi, is for the shown-value rule and terminalSafe to show).
      for (const raw of ['\n', '\r', '\t', '\u001b']) expect(skip.path).not.toContain(raw);
    }
    // Nothing in the folder was changed: every crafted task's files are where they were.
    for (const task of crafted) {
      expect(await readdir(join(root, task.folder ?? ''))).toEqual(['image-1.png', 'pictor.json']);
    }
  });

  it('leaves out a crafted folder that lost its sidecar, as it does one with a sidecar', async () => {
    const good = record(1, '2024/05/good');
    await writeTask(good);
    const bare = record(2, '2024/05/bare\u001bfolder');
    await writeTask(bare);
    await rm(join(root, bare.folder ?? '', 'pictor.json'));

    const { records, skipped } = await rebuildFromFolder(root);

    expect(records.map((task) => task.localId)).toEqual([good.localId]);
    expect(skipped).toEqual([
      {
        path: JSON.stringify(bare.folder),
        reason: expect.stringMatching(/invisible, control or look-alike.*left out/),
        reasonSentence: pathRuleSentence('tricky'),
      },
    ]);
  });
});

describe('names one on a folding disk, rebuilt on one that keeps them apart', () => {
  const NFC = '2024/05/Caf\u00e9';
  const NFD = '2024/05/Cafe\u0301';

  it('takes a folder macOS lists in NFD, alone, as it is spelled on disk', async () => {
    const task = record(1, NFC);
    await writeTask(task, NFD);

    const { records, skipped } = await rebuildFromFolder(root);

    expect(skipped).toEqual([]);
    expect(records.map((found) => found.folder)).toEqual([NFD]);
    expect(records[0]?.images[0]?.file).toBe(`${NFD}/image-1.png`);
    expect(shownAndExported(records[0]?.images[0]?.file ?? '')).toBe(true);
  });

  it('of two tasks whose folders are one name in NFC, takes the NFC one and says why not the other', async () => {
    const first = record(1, NFC);
    const second = record(2, NFD);
    await writeTask(first);
    await writeTask(second);

    const { records, skipped } = await rebuildFromFolder(root);

    expect(records.map((task) => [task.localId, task.folder])).toEqual([[first.localId, NFC]]);
    expect(skipped).toEqual([
      {
        path: JSON.stringify(`${NFD}/pictor.json`),
        reason: expect.stringMatching(/not in normalised \(NFC\) Unicode.*left out/),
        reasonSentence: pathRuleSentence('nfc'),
      },
    ]);
    const bytes = await readFile(join(root, NFC, 'image-1.png'));
    expect(bytes.subarray(png.length).toString()).toBe(first.localId);
  });

  it('of one task in both spellings, keeps one record, the NFC folder, whichever is newer', async () => {
    const older = record(1, NFC);
    const newer = { ...older, updatedAt: older.updatedAt + 1000, folder: NFD };
    await writeTask(older);
    await writeTask(newer);

    const { records } = await rebuildFromFolder(root);

    expect(records.map((task) => [task.localId, task.folder])).toEqual([[older.localId, NFC]]);
  });

  it('keeps two tasks whose folders differ in case each with its own images', async () => {
    const upper = record(1, '2024/05/Task');
    const lower = record(2, '2024/05/task');
    await writeTask(upper);
    await writeTask(lower);

    const { records, skipped } = await rebuildFromFolder(root);

    expect(skipped).toEqual([]);
    expect(records.map((task) => [task.localId, task.folder])).toEqual([
      [upper.localId, upper.folder],
      [lower.localId, lower.folder],
    ]);
    for (const task of records) {
      const bytes = await readFile(join(root, task.images[0]?.file ?? ''));
      expect(bytes.subarray(png.length).toString()).toBe(task.localId);
    }
  });

  it('keeps one record of one task found in two cases of its folder', async () => {
    const task = record(1, '2024/05/Task');
    await writeTask(task);
    await writeTask(task, '2024/05/task');

    const { records, skipped } = await rebuildFromFolder(root);

    expect(records.map((found) => [found.localId, found.folder])).toEqual([
      [task.localId, task.folder],
    ]);
    expect(skipped).toEqual([
      {
        path: '2024/05/task/pictor.json',
        reason: expect.stringMatching(/same task/),
        reasonSentence: { key: 'error.library.sameTaskSidecar' },
      },
    ]);
  });
});
