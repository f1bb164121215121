/**
 * A task's request carries the model's own options (`params`) and the seed asked for; its record
 * carries the seed the service said it used. All three go through a library archive's export and
 * import into an empty library unchanged. An edited archive whose task asks for options no
 * request may hold (a value of the wrong type, an option named `__proto__`, a text past the
 * longest Pictor sends, a seed that is no seed), or whose images repeat an index, has that task
 * refused with a sentence naming its sidecar, nothing of it written; the archive's other tasks
 * come in as they were. The sentence quotes no more of the file than the window's list takes,
 * and none of its controls or bidi characters.
 */
import { readdir } from 'node:fs/promises';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  BIDI_CONTROLS,
  CONTROL_CHARACTERS,
  LINE_SEPARATORS,
  anyOf,
} from '../../../../../shared/text/control-characters';
import { MAX_PARAM_TEXT } from '../../../../../shared/domain/model-params';
import { refusalSchema } from '../../../../../shared/ipc/archive-contract';
import type { TaskRecord } from '../../../../../shared/domain/task-record';
import { exportLibrary } from '../../../../../electron/core/library/archive/export-library';
import { editArchive } from './edit-archive';
import { addTask, importInto, useLibraries, type Library } from './library-fixture';

const library = useLibraries();

const PARAMS = {
  aspect_ratio: '16:9',
  num_images: 2,
  guidance_scale: 3.5,
  enable_safety_checker: false,
  negative_prompt: 'blurry, ‮reversed‬ text, 霧',
};

async function exported(from: Library, name = 'export.zip'): Promise<string> {
  const target = join(from.dir, name);
  await exportLibrary({ root: from.root, history: from.history, target, pictorVersion: '9.9.9' });
  return target;
}

/** A library with one task asking for `PARAMS` and a seed, and one plain task. */
async function twoTasks(): Promise<{ from: Library; asked: TaskRecord; plain: TaskRecord }> {
  const from = await library();
  const asked = await addTask(from, ['png'], {
    request: { prompt: 'A lighthouse at dusk', model: 'fal-ai/flux/dev', params: PARAMS, seed: 42 },
    seed: 42,
  });
  const plain = await addTask(from, ['webp']);
  return { from, asked, plain };
}

/** An option's name: a bidi override, a terminal's clipboard escape, then 3,000 letters. */
const STEERING_NAME = `\u202eevil\u001b]52;c;Y3VybA==\u0007${'x'.repeat(3_000)}`;

/** The options no request may hold, each as the sidecar's JSON would say it. */
const HOSTILE: readonly [string, () => unknown][] = [
  ['a value of the wrong type', () => ({ guidance_scale: { $gt: 1 } })],
  ['a list for a value', () => ({ num_images: [1, 2] })],
  ['an option named __proto__', () => JSON.parse('{"__proto__": {"polluted": true}, "n": 1}')],
  ['a text past the longest sent', () => ({ negative_prompt: 'x'.repeat(MAX_PARAM_TEXT + 1) })],
  ['options that are no object', () => 'aspect_ratio=16:9'],
  // Its name in the refusal's reason: a page of text that would steer the sentence around it.
  ['an option named by a page of steering text', () => ({ [STEERING_NAME]: { $gt: 1 } })],
];

describe('a task’s model options and seed in a library archive', () => {
  it('come into an empty library identical, the plain task still without them', async () => {
    const { from, asked, plain } = await twoTasks();
    const to = await library();
    const summary = await importInto(to, await exported(from));
    expect(summary).toMatchObject({ addedTasks: 2, addedImages: 2, refused: [] });
    const got = to.history.get(asked.localId)!;
    expect(got.request).toEqual(from.history.get(asked.localId)!.request);
    expect(got.request).toMatchObject({ params: PARAMS, seed: 42 });
    expect(got.seed).toBe(42);
    const bare = to.history.get(plain.localId)!;
    expect(bare.request).not.toHaveProperty('params');
    expect(bare.request).not.toHaveProperty('seed');
    expect(bare).not.toHaveProperty('seed');
  });

  it.each(HOSTILE)('refuse the task whose options hold %s, keeping the others', async (_, make) => {
    const { from, asked, plain } = await twoTasks();
    const archive = await exported(from);
    const crafted = await editArchive(archive, join(from.dir, 'crafted.zip'), (record) =>
      record.localId === asked.localId
        ? { ...record, request: { ...record.request, params: make() as never } }
        : record,
    );
    const to = await library();
    const summary = await importInto(to, crafted);
    expect(summary).toMatchObject({ addedTasks: 1, addedImages: 1, cancelled: false });
    expect(summary.refused).toHaveLength(1);
    expect(summary.refused[0]!.path).toMatch(/pictor\.json$/);
    expect(summary.refused[0]!.reason).toMatch(/^The task record in the sidecar is not valid/);
    // As the window's list takes it (main's answer is checked against it), steering nothing.
    expect(refusalSchema().safeParse(summary.refused[0]).success).toBe(true);
    expect(summary.refused[0]!.reason).not.toMatch(
      anyOf([CONTROL_CHARACTERS, BIDI_CONTROLS, LINE_SEPARATORS]),
    );
    expect(to.history.get(asked.localId)).toBeUndefined();
    expect(to.history.get(plain.localId)?.images[0]?.state).toBe('saved');
    expect(({} as Record<string, unknown>)['polluted']).toBeUndefined();
    // Only the kept task's folder was written (and no staging folder is left).
    const days = (await readdir(to.root)).filter((name) => !name.startsWith('.'));
    const folders = (await Promise.all(days.map((day) => readdir(join(to.root, day))))).flat();
    expect(folders).toHaveLength(1);
  });

  it('refuses the task whose asked seed is no seed', async () => {
    const { from, asked } = await twoTasks();
    const crafted = await editArchive(await exported(from), join(from.dir, 'seed.zip'), (record) =>
      record.localId === asked.localId
        ? { ...record, request: { ...record.request, seed: -1 } }
        : record,
    );
    const to = await library();
    const summary = await importInto(to, crafted);
    expect(summary).toMatchObject({ addedTasks: 1 });
    expect(summary.refused.map((refused) => refused.reason)).toEqual([
      expect.stringMatching(/^The task record in the sidecar is not valid/),
    ]);
  });
});

describe('a task’s images in a library archive', () => {
  it('refuse the task whose images repeat an index, keeping the others', async () => {
    const { from, asked, plain } = await twoTasks();
    // Two images saying image-1: the import would stage both into one file.
    const crafted = await editArchive(
      await exported(from),
      join(from.dir, 'twice.zip'),
      (record) =>
        record.localId === plain.localId
          ? { ...record, images: [record.images[0]!, { ...record.images[0]!, rating: 5 }] }
          : record,
    );
    const to = await library();
    const summary = await importInto(to, crafted);
    expect(summary).toMatchObject({ addedTasks: 1, addedImages: 1, cancelled: false });
    expect(summary.refused.map((refused) => [refused.path, refused.reason])).toEqual([
      [expect.stringMatching(/pictor\.json$/), expect.stringMatching(/same index/)],
    ]);
    expect(to.history.get(plain.localId)).toBeUndefined();
    expect(to.history.get(asked.localId)?.images[0]?.state).toBe('saved');
  });
});
