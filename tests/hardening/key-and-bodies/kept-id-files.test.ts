/**
 * A task the library kept under an id that carries the key (stored before ids were checked), with
 * its images saved: the id is written in more places than the history. The task's `pictor.json`
 * holds the whole record, and each saved image says its task id in its own metadata (the PNG's
 * XMP packet and its `parameters` text, provenance.ts), which is what a user shares. When
 * `pictor track` refuses that id and redacts it from the record, every file of the task folder is
 * brought to the redacted record: none of them holds the key afterwards, in any encoding a
 * command line can carry, and the images keep their provenance (the id with "[redacted]" in the
 * key's place) and stay the same pictures.
 *
 * The old files are written as the app wrote them then: by the gallery's own sidecar writer and
 * the download's own provenance embedder, from the record with the key-carrying id. The positive
 * control is that the scanner finds the key in them before the track.
 */
import { readFile, rm, writeFile } from 'node:fs/promises';
import { dirname, join } from 'node:path';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { MAX_IMAGE_BYTES } from '../../../shared/domain/limits';
import { Gallery } from '../../../electron/core/gallery/gallery';
import { embedProvenanceInFile } from '../../../electron/core/gallery/metadata/embed';
import { provenanceOf } from '../../../electron/core/gallery/metadata/provenance';
import { readFileProvenance } from '../../../electron/core/gallery/metadata/read';
import { IMAGE_EXTENSION, IMAGE_MIME, type ImageKind } from '../../../electron/core/images';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { HISTORY_FILE } from '../../../electron/core/pictor-core';
import { QUIRKY_KEYS } from '../../fakes/quirky-service';
import { filesUnder } from '../../support/files';
import {
  expectExit,
  onlyTask,
  useCliWorlds,
  type CliWorld,
} from '../../integration/cli/cli-harness';
import { describeRun } from '../../integration/cli/run-cli';
import { ENCODINGS, keptIdEncodings, keyScanner } from './key-encodings';

const newWorld = useCliWorlds();
const KEY = QUIRKY_KEYS.alice;

/** The encodings an argument can carry past the task id rule (keptIdEncodings). */
const ARGUMENT_ENCODINGS = keptIdEncodings(KEY);

function withHistory<T>(world: CliWorld, use: (history: HistoryStore) => T): T {
  const history = HistoryStore.open(join(world.dataDir, HISTORY_FILE));
  try {
    return use(history);
  } finally {
    history.close();
  }
}

/** The gallery folder the record's first image lives under (its path minus its relative name). */
function galleryRootOf(record: TaskRecord, imagePath: string): string {
  const relative = record.images[0]!.file!;
  return imagePath.slice(0, imagePath.length - relative.length - 1);
}

/**
 * The task as an app from before ids were checked left it: the record under `taskId` in the
 * history, its `pictor.json` and each image's provenance written from that record.
 */
async function keepUnder(
  world: CliWorld,
  localId: string,
  imagePath: string,
  taskId: string,
  kind: ImageKind = 'png',
) {
  const kept = withHistory(world, (history) => {
    const record = { ...history.get(localId)!, taskId };
    history.put(record);
    return record;
  });
  const root = galleryRootOf(kept, imagePath);
  await new Gallery({ root, appVersion: 'old' }).writeSidecar(kept);
  for (const image of kept.images) {
    const written = await embedProvenanceInFile(
      join(root, image.file!),
      kind,
      provenanceOf(kept, image.index, 'old'),
      { root, maxBytes: MAX_IMAGE_BYTES },
    );
    expect(written.ok).toBe(true);
  }
  return { kept, root };
}

/** Every string value in a JSON text, decoded (a JSON file escapes an id's own backslashes). */
function stringsOf(value: unknown): string[] {
  if (typeof value === 'string') return [value];
  if (value === null || typeof value !== 'object') return [];
  return Object.values(value).flatMap(stringsOf);
}

async function leaksUnder(folder: string): Promise<string[]> {
  const leaking: string[] = [];
  for (const file of await filesUnder(folder)) {
    const bytes = await readFile(file);
    const utf8 = bytes.toString('utf8');
    const decoded = file.endsWith('.json') ? stringsOf(JSON.parse(utf8)).join('\n') : '';
    const found = keyScanner(KEY).leaks(`${bytes.toString('latin1')}\n${utf8}\n${decoded}`);
    if (found.length > 0) leaking.push(`${file.slice(folder.length)}: ${found.join(', ')}`);
  }
  return leaking;
}

describe('a task kept under a key-carrying id, its images saved', () => {
  it('has the key redacted from its pictor.json and its images’ provenance when track refuses the id', async () => {
    const world = await newWorld({ durationMs: 50 });
    const made = await world.run([
      'generate',
      '--prompt',
      'kept before ids were checked',
      '--json',
    ]);
    expectExit(made, 0);
    const task = onlyTask(made);
    const imagePath = task.images[0]!.path!;
    const folder = dirname(imagePath);
    const pixels = await sharp(imagePath).raw().toBuffer();
    for (const encoding of ARGUMENT_ENCODINGS) {
      const id = `task-${ENCODINGS[encoding]!(KEY, 1)}`;
      const { root } = await keepUnder(world, task.localId, imagePath, id);
      // The positive control: the old files say the id, so they carry the key.
      const before = await leaksUnder(folder);
      expect(
        before.some((leak) => leak.includes('pictor.json')),
        encoding,
      ).toBe(true);
      expect(
        before.some((leak) => leak.includes('.png')),
        `${encoding}: ${before}`,
      ).toBe(true);

      const run = await world.run(['track', id]);
      expectExit(run, 2);
      expect(run.stderr, describeRun(run)).toContain(
        `The library's task ${task.localId} was kept under that id`,
      );
      expect(await leaksUnder(folder), encoding).toEqual([]);
      // The image keeps its provenance, the id redacted, and its pixels.
      const said = await readFileProvenance(root, imagePath, 'png', MAX_IMAGE_BYTES);
      expect(said.ok && said.provenance.taskId, encoding).toContain('[redacted]');
      expect(await sharp(imagePath).raw().toBuffer()).toEqual(pixels);
      const record = withHistory(world, (history) => history.get(task.localId)!);
      expect(record.taskId, encoding).toContain('[redacted]');
      expect(record.images[0]!.bytes).toBe((await readFile(imagePath)).length);
    }
  });

  it('the same for a JPEG and a WebP image (their XMP packet)', async () => {
    const world = await newWorld({ durationMs: 50 });
    for (const kind of ['jpeg', 'webp'] as const) {
      const made = await world.run(['generate', '--prompt', `kept as ${kind}`, '--json']);
      expectExit(made, 0);
      const task = onlyTask(made);
      const png = task.images[0]!.path!;
      // The task's image as a file of this kind, as a service may have sent it.
      const imagePath = png.replace(/\.png$/, `.${IMAGE_EXTENSION[kind]}`);
      await writeFile(imagePath, await sharp(png).toFormat(kind).toBuffer());
      await rm(png);
      withHistory(world, (history) => {
        const record = history.get(task.localId)!;
        const file = record.images[0]!.file!.replace(/\.png$/, `.${IMAGE_EXTENSION[kind]}`);
        const image = { ...record.images[0]!, file, mime: IMAGE_MIME[kind] };
        history.put({ ...record, images: [image] });
      });
      for (const encoding of ['raw', 'base64', 'hexUpper', 'percentEveryByte']) {
        const id = `task-${ENCODINGS[encoding]!(KEY, 2)}`;
        const { root } = await keepUnder(world, task.localId, imagePath, id, kind);
        const before = await leaksUnder(dirname(imagePath));
        expect(before.some((leak) => leak.includes(`.${IMAGE_EXTENSION[kind]}`))).toBe(true);
        const run = await world.run(['track', id]);
        expectExit(run, 2);
        expect(await leaksUnder(dirname(imagePath)), `${kind} ${encoding}`).toEqual([]);
        const said = await readFileProvenance(root, imagePath, kind, MAX_IMAGE_BYTES);
        expect(said.ok && said.provenance.taskId, `${kind} ${encoding}`).toContain('[redacted]');
      }
    }
  });
});
