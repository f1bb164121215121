/**
 * Hostile libraries against the library's limits on triage (history/triage-limits.ts): a crafted
 * gallery folder and a crafted archive whose tasks name 10,240 different tags and 10,240 boards
 * between them. Rebuilt or imported, the library holds 10,000 of each, a sentence says how many
 * were left off, and nothing else is lost: every task, every image with its state and rating.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import type { ImageRecord, TaskRecord } from '../../../../shared/domain/task-record';
import { MAX_BOARDS, MAX_TAGS_PER_LIBRARY } from '../../../../shared/domain/triage';
import { englishText } from '../../../../shared/i18n/sentence';
import { sidecarText } from '../../../../electron/core/gallery/sidecar';
import { importGalleryTasks } from '../../../../electron/core/library/relocate-open';
import { makeImage } from '../../../support/gallery-helpers';
import { taskFiles, type ExportFile } from './archive/crafted-export';
import { importInto, useLibraries, type Library } from './archive/library-fixture';
import { yazlExport } from './archive/yazl-archive';

const library = useLibraries();

/**
 * Ten tasks of sixteen images, each image naming 64 tags and 64 boards no other image names:
 * 10,240 of each in all. Each task's first image is a real PNG; the others expired before they
 * were saved (no file), which a record may hold with its triage: the fixture stays small.
 */
const TASKS = 10;
const IMAGES = 16;
const PER_IMAGE = 64;
const OVER = TASKS * IMAGES * PER_IMAGE - MAX_TAGS_PER_LIBRARY;

function triaged(image: ImageRecord, n: number): ImageRecord {
  const names = (word: string) =>
    Array.from({ length: PER_IMAGE }, (_, k) => `${word} ${String(n * PER_IMAGE + k)}`);
  return { ...image, rating: 5, tags: names('tag'), boards: names('Board') };
}

/** The crafted tasks as export files (sidecar and one real PNG each, the PNG shared). */
async function craftedTasks(): Promise<{ records: TaskRecord[]; files: ExportFile[] }> {
  const png = await makeImage('png', 8, 8);
  const records: TaskRecord[] = [];
  const files: ExportFile[] = [];
  for (let task = 0; task < TASKS; task += 1) {
    const made = await taskFiles({ data: png, width: 8, height: 8 });
    const [saved] = made.record.images as [ImageRecord];
    const expired = Array.from({ length: IMAGES - 1 }, (_, k): ImageRecord => ({
      index: k + 1,
      url: `https://cdn.example.com/${String(task)}/${String(k + 1)}.png`,
      state: 'expired',
      attempts: 1,
      favourite: false,
    }));
    const images = [saved, ...expired].map((image, k) => triaged(image, task * IMAGES + k));
    const record: TaskRecord = { ...made.record, images };
    records.push(record);
    const [file, sidecar] = made.files as [ExportFile, ExportFile];
    files.push(file, { ...sidecar, data: Buffer.from(sidecarText(record)) });
  }
  return { records, files };
}

/** What the library's history holds, read with a connection of its own. */
function counted(into: Library) {
  const db = new DatabaseSync(join(into.dir, 'history.sqlite'), { readOnly: true });
  try {
    const n = (sql: string) => Number(db.prepare(sql).get()?.['n']);
    return {
      tasks: n('SELECT count(*) AS n FROM tasks'),
      savedImages: n("SELECT count(*) AS n FROM images WHERE state = 'saved'"),
      expiredImages: n("SELECT count(*) AS n FROM images WHERE state = 'expired'"),
      rated: n('SELECT count(*) AS n FROM images WHERE rating = 5'),
      tags: n('SELECT count(DISTINCT tag_key) AS n FROM image_tags'),
      boards: n('SELECT count(*) AS n FROM boards'),
    };
  } finally {
    db.close();
  }
}

const EXPECTED = {
  tasks: TASKS,
  savedImages: TASKS,
  expiredImages: TASKS * (IMAGES - 1),
  rated: TASKS * IMAGES,
  tags: MAX_TAGS_PER_LIBRARY,
  boards: MAX_BOARDS,
};

const SAID = [
  `The library can have at most 10,000 different tags: ${String(OVER)} tags were left off images.`,
  `The library can have at most 10,000 boards: ${String(OVER)} boards were left off images.`,
];

describe('a crafted library past the limits of tags and boards', () => {
  it('rebuilt from its folder: 10,000 of each, the rest said in a note, nothing else lost', async () => {
    const into = await library();
    const { records, files } = await craftedTasks();
    for (const file of files) {
      const path = join(into.root, ...file.path.split('/'));
      await mkdir(dirname(path), { recursive: true });
      await writeFile(path, file.data);
    }
    const result = await importGalleryTasks(into);
    expect(result).toMatchObject({ found: TASKS, added: TASKS, skipped: [] });
    expect(result.notes).toEqual(SAID.map((reason) => ({ path: '.', reason })));
    expect(counted(into)).toEqual(EXPECTED);
    // The first tasks keep every tag and board they named; the prompt and files stay.
    const first = into.history.get(records[0]!.localId)!;
    expect(first.images[0]!.tags).toEqual(records[0]!.images[0]!.tags);
    expect(first.images[0]!.boards).toEqual(records[0]!.images[0]!.boards);
    expect(first.request.prompt).toBe(records[0]!.request.prompt);
  });

  it('imported from an archive: 10,000 of each, the rest said in the summary, nothing else lost', async () => {
    const into = await library();
    const { files } = await craftedTasks();
    const archive = await yazlExport(into.dir, files, 'crafted.zip');
    const summary = await importInto(into, archive);
    expect(summary).toMatchObject({ addedTasks: TASKS, addedImages: TASKS, refused: [] });
    expect(summary.notes.map(englishText)).toEqual(SAID);
    expect(counted(into)).toEqual(EXPECTED);
  });
});
