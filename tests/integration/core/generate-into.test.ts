/**
 * "Generate into" a board, on the real core (SQLite history, gallery on disk, HTTP client) against
 * the demo service on loopback: a submit names a board's path; a path the library lacks is made
 * at submit (a bad one, or one past the library's limits, is refused with its sentence and nothing
 * is stored or sent); the task keeps the path (history, sidecar, rebuild), and each image joins
 * the board in the very write that first records it, after a restart too. A board deleted while
 * the task runs is made again at that path by that write.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { EngineInputError } from '../../../electron/core/engine/engine-types';
import { resend } from '../../../electron/core/batch/resend';
import { rebuildLibrary } from '../../../electron/core/library/rebuild-verified';
import { HISTORY_FILE, type PictorCore } from '../../../electron/core/pictor-core';
import { TriageError } from '../../../electron/core/triage/triage-error';
import type { ImageRecord, TaskRecord } from '../../../shared/domain/task-record';
import { readOwnTriage } from '../../../electron/core/gallery/metadata/xmp-own-triage';
import { boardKey, checkBoardPath, MAX_BOARDS } from '../../../shared/domain/triage';
import { englishText, sentence } from '../../../shared/i18n/sentence';
import { clockedCoreAgainstDemo as coreAgainstDemo } from './core-harness';

const PROMPT = { prompt: 'a lighthouse at dusk', size: '64x64' };

/** The boards' paths and image counts, as the library lists them. */
function boardsOf(core: PictorCore): Record<string, number> {
  return Object.fromEntries(core.boards.list().map((row) => [row.path, row.images]));
}

/** The images the history lists in the board at `path`, as `localId#index`. */
function imagesIn(core: PictorCore, path: string): string[] {
  return core.history
    .listImages({ board: path })
    .items.map((item) => `${item.localId}#${String(item.index)}`)
    .sort();
}

/** Every image of the records, as `localId#index`. */
function imagesOf(records: readonly TaskRecord[]): string[] {
  return records
    .flatMap((record) => record.images.map((image) => `${record.localId}#${String(image.index)}`))
    .sort();
}

/**
 * Records, every time the engine announces a task with images, whether the history then had each
 * of them in the board: an image in the gallery outside its board, even for a moment, is caught.
 */
function watchBoardOnArrival(core: PictorCore, path: string): { outside: string[]; seen: number } {
  const found = { outside: [] as string[], seen: 0 };
  core.engine.onDidUpdate(({ record }) => {
    const stored = core.history.get(record.localId);
    if (!stored || stored.images.length === 0) return;
    found.seen += 1;
    const inBoard = new Set(imagesIn(core, path));
    for (const id of imagesOf([stored])) if (!inBoard.has(id)) found.outside.push(id);
  });
  return found;
}

describe('generate into a board', () => {
  it.each([
    ['at addresses', null],
    ['sent inline', 'data-url'],
  ] as const)(
    'makes a new board at submit, and each image (%s) is in it as it arrives',
    async (_how, inlineResults) => {
      const h = await coreAgainstDemo({ imagesPerTask: 2, durationMs: 300, inlineResults });
      h.core.engine.start();
      const watched = watchBoardOnArrival(h.core, 'Clients/Acme');
      const records = await h.core.engine.submit(PROMPT, h.target, 2, '  Clients/Acme ');
      // The board (and its parent) exist before any image does; the tasks keep its path.
      expect(boardsOf(h.core)).toEqual({ Clients: 0, 'Clients/Acme': 0 });
      expect(records.map((record) => record.board)).toEqual(['Clients/Acme', 'Clients/Acme']);
      const done = await h.settle(records.map((record) => record.localId));
      expect(done.map((record) => record.status)).toEqual(['completed', 'completed']);
      for (const record of done) {
        expect(record.images).toHaveLength(2);
        for (const image of record.images) {
          expect(image).toMatchObject({ state: 'saved', boards: ['Clients/Acme'] });
        }
      }
      expect(imagesIn(h.core, 'Clients/Acme')).toEqual(imagesOf(done));
      expect(watched.seen).toBeGreaterThan(0);
      expect(watched.outside).toEqual([]);
      expect(boardsOf(h.core)).toEqual({ Clients: 0, 'Clients/Acme': 4 });
      // The sidecars keep the board: the task's in pictor.json, each image's in pictor.json
      // while it is not saved yet and in its XMP once it is; so a rebuild from the gallery alone
      // keeps it too.
      const folder = done[0]!.folder;
      const sidecar = JSON.parse(
        readFileSync(h.core.gallery.resolve(`${folder}/pictor.json`), 'utf8'),
      );
      expect(sidecar.record).toMatchObject({ board: 'Clients/Acme' });
      for (const [index, image] of (sidecar.record.images as ImageRecord[]).entries()) {
        const xmp = h.core.gallery.resolve(`${folder}/image-${index + 1}.xmp`);
        const own = image.boards ? image : readOwnTriage(readFileSync(xmp, 'utf8'));
        expect(own?.boards, `image ${index + 1}`).toEqual(['Clients/Acme']);
      }
      const { records: rebuilt } = await rebuildLibrary(h.core.intake);
      expect(rebuilt.map((record) => record.board)).toEqual(['Clients/Acme', 'Clients/Acme']);
    },
  );

  it('joins the board the library has by that path, spelled as the library spells it', async () => {
    const h = await coreAgainstDemo({ durationMs: 100 });
    h.core.boards.create('Clients/Acme');
    h.core.engine.start();
    const [record] = await h.core.engine.submit(PROMPT, h.target, 1, 'CLIENTS/acme');
    expect(record!.board).toBe('Clients/Acme');
    const [done] = await h.settle([record!.localId]);
    expect(done!.images[0]).toMatchObject({ state: 'saved', boards: ['Clients/Acme'] });
    expect(boardsOf(h.core)).toEqual({ Clients: 0, 'Clients/Acme': 1 });
  });

  it('finds a board stored with a character that draws nothing by either spelling; a new one is refused', async () => {
    const h = await coreAgainstDemo({ durationMs: 100 });
    // Stored by the version before the rule (its key re-folded by history v22): the form's picker
    // offers it as stored, `Clients\u200b`; the user may type `clients`.
    const twin = 'Clients\u200b';
    const db = new DatabaseSync(join(h.dir, 'data', HISTORY_FILE));
    db.prepare('INSERT INTO boards (key, path, created_at) VALUES (?, ?, 1)').run('clients', twin);
    db.close();
    h.core.engine.start();
    const picked = await h.core.engine.submit(PROMPT, h.target, 1, twin);
    const typed = await h.core.engine.submit(PROMPT, h.target, 1, 'clients');
    const inside = await h.core.engine.submit(PROMPT, h.target, 1, `${twin}/Acme`);
    expect([picked, typed, inside].map(([record]) => record!.board)).toEqual([
      twin,
      twin,
      `${twin}/Acme`,
    ]);
    await h.settle([picked, typed, inside].map(([record]) => record!.localId));
    expect(boardsOf(h.core)).toEqual({ [twin]: 2, [`${twin}/Acme`]: 1 });
    // A name new to the library that draws nothing extra is refused, by the library's rule.
    for (const path of ['Keep\u3164', `${twin}/New\u200b`]) {
      const refusal = h.core.engine.submit(PROMPT, h.target, 1, path);
      await expect(refusal).rejects.toMatchObject({
        sentence: { key: 'error.triage.boardCharacter' },
      });
    }
    expect(h.core.history.count()).toBe(3);
    expect(h.service.log.submits).toHaveLength(3);
    expect(Object.keys(boardsOf(h.core))).toHaveLength(2);
  });

  it('a submit into no board leaves its images in none', async () => {
    const h = await coreAgainstDemo({ durationMs: 100 });
    h.core.engine.start();
    const [record] = await h.core.engine.submit(PROMPT, h.target);
    const [done] = await h.settle([record!.localId]);
    expect(done).not.toHaveProperty('board');
    expect(done!.images[0]).toMatchObject({ state: 'saved' });
    expect(done!.images[0]).not.toHaveProperty('boards');
    expect(boardsOf(h.core)).toEqual({});
  });

  it.each([
    ['an empty name', 'Clients//Acme'],
    ['a slash at the end', 'Clients/'],
    ['a control character', 'Cli\u0007ents'],
    ['too deep a path', 'a/b/c/d/e/f'],
    ['too long a name', 'n'.repeat(101)],
  ])('refuses %s with its sentence; nothing is stored, made or sent', async (_what, path) => {
    const h = await coreAgainstDemo({ durationMs: 100 });
    h.core.engine.start();
    const problem = checkBoardPath(path);
    if (problem.ok) throw new Error(`${path} should be refused`);
    const refusal = h.core.engine.submit(PROMPT, h.target, 1, path);
    await expect(refusal).rejects.toBeInstanceOf(EngineInputError);
    await expect(refusal).rejects.toMatchObject({
      message: englishText(problem.problem),
      sentence: problem.problem,
      code: 'bad_input',
    });
    expect(h.core.history.count()).toBe(0);
    expect(boardsOf(h.core)).toEqual({});
    expect(h.service.log.submits).toHaveLength(0);
  });

  it('refuses a new board past the library’s limit with the sentence Boards.create gives', async () => {
    const h = await coreAgainstDemo({ durationMs: 100 });
    // The library at its limit, written by another connection to the same file (as a CLI would).
    const db = new DatabaseSync(join(h.dir, 'data', HISTORY_FILE));
    db.exec('BEGIN');
    const insert = db.prepare('INSERT INTO boards (key, path, created_at) VALUES (?, ?, ?)');
    for (let n = 0; n < MAX_BOARDS; n += 1) insert.run(`b${String(n)}`, `b${String(n)}`, 1);
    db.exec('COMMIT');
    db.close();
    h.core.engine.start();
    const refusal = h.core.engine.submit(PROMPT, h.target, 1, 'One more');
    await expect(refusal).rejects.toBeInstanceOf(TriageError);
    await expect(refusal).rejects.toMatchObject({
      sentence: sentence('error.triage.tooManyBoards', { max: MAX_BOARDS }),
    });
    expect(h.core.history.count()).toBe(0);
    expect(h.service.log.submits).toHaveLength(0);
    expect(h.core.history.triage.boardPath(boardKey('One more'))).toBeNull();
    // A board the library has already needs no room: the submit goes ahead.
    const [record] = await h.core.engine.submit(PROMPT, h.target, 1, 'B7');
    const [done] = await h.settle([record!.localId]);
    expect(done!.images[0]).toMatchObject({ state: 'saved', boards: ['b7'] });
  });

  it('keeps the board across a restart mid-task: the images join it when they arrive', async () => {
    const h = await coreAgainstDemo({ durationMs: 2_000, imagesPerTask: 2 });
    h.core.engine.start();
    const [record] = await h.core.engine.submit(PROMPT, h.target, 1, 'Night/Shoot');
    await h.drive(() => h.core.history.get(record!.localId)?.status === 'processing');
    await h.restart();
    expect(h.core.history.get(record!.localId)).toMatchObject({
      status: 'processing',
      board: 'Night/Shoot',
      images: [],
    });
    const watched = watchBoardOnArrival(h.core, 'Night/Shoot');
    h.core.engine.start({ resume: true });
    const [done] = await h.settle([record!.localId]);
    expect(done).toMatchObject({
      status: 'completed',
      images: [
        { state: 'saved', boards: ['Night/Shoot'] },
        { state: 'saved', boards: ['Night/Shoot'] },
      ],
    });
    expect(watched.outside).toEqual([]);
    expect(imagesIn(h.core, 'Night/Shoot')).toEqual(imagesOf([done!]));
    // Sent once, polled by both runs.
    expect(h.service.log.submits).toHaveLength(1);
  });

  it('a board deleted while the task runs is made again at its path by the images', async () => {
    const h = await coreAgainstDemo({ durationMs: 1_000 });
    h.core.engine.start();
    const [record] = await h.core.engine.submit(PROMPT, h.target, 1, 'Later/Picks');
    await h.drive(() => h.core.history.get(record!.localId)?.status === 'processing');
    h.core.boards.delete('Later');
    expect(boardsOf(h.core)).toEqual({});
    const [done] = await h.settle([record!.localId]);
    expect(done!.images[0]).toMatchObject({ state: 'saved', boards: ['Later/Picks'] });
    expect(boardsOf(h.core)).toEqual({ Later: 0, 'Later/Picks': 1 });
  });

  it('Submit again (one task, or a batch Rerun) goes into the board the task was generated into', async () => {
    const h = await coreAgainstDemo({ durationMs: 100 });
    h.core.engine.start();
    const [first] = await h.core.engine.submit(PROMPT, h.target, 1, 'Series/One');
    const [none] = await h.core.engine.submit(PROMPT, h.target, 1);
    await h.settle([first!.localId, none!.localId]);
    const {
      records: [again],
    } = await resend(h.core, [first!.localId], { as: 'each' });
    expect(again!.board).toBe('Series/One');
    const {
      records: [plain],
    } = await resend(h.core, [none!.localId], { as: 'each' });
    expect(plain!.board).toBeUndefined();
    const [done] = await h.settle([again!.localId, plain!.localId]);
    expect(done!.images[0]).toMatchObject({ state: 'saved', boards: ['Series/One'] });
    // A task made from a template is submitted again with its template (how its prompt was made).
    const template = {
      id: '0b7f3c1e-2d4a-4f6b-9c8d-7e6f5a4b3c2d',
      name: 'Series',
      version: 3,
      values: { subject: 'lake' },
      mode: 'combinatorial' as const,
    };
    const [made] = await h.core.engine.submitBatch(
      { requests: [PROMPT], count: 1, template },
      h.target,
    );
    const {
      records: [madeAgain],
    } = await resend(h.core, [made!.localId], { as: 'each' });
    expect(madeAgain!.template).toEqual(made!.template);
    expect(madeAgain!.request).toEqual(made!.request);
    await h.settle([made!.localId, madeAgain!.localId]);
    expect(imagesIn(h.core, 'Series/One')).toEqual(
      imagesOf([first!, done!].map((r) => h.core.history.get(r.localId)!)),
    );
  });
});
