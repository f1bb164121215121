/**
 * The input digests the history's records name (LineageRows.inputDigests), the set the input
 * store's bound keeps whatever its age (core/inputs/input-quota.ts): every image of every task
 * that has inputs (source, mask, alpha mask, references), whether made from a library image or a
 * file, each once; none from a task without inputs. A real history in a temporary folder.
 */
import { createHash } from 'node:crypto';
import { join } from 'node:path';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { ImageInputs, InputImage } from '../../../../shared/domain/image-inputs';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { HistoryStore } from '../../../../electron/core/history/history-store';
import { makeImage, makeTaskRecord } from '../../../support/task-records';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

const T0 = Date.UTC(2026, 5, 1);

const digest = (seed: string) => createHash('sha256').update(seed).digest('hex');

function input(seed: string): InputImage {
  return { sha256: digest(seed), mime: 'image/png', width: 64, height: 48, bytes: 1_000 };
}

function task(localId: string, at: number, inputs?: ImageInputs): TaskRecord {
  return makeTaskRecord(
    {
      localId,
      createdAt: T0 + at * 1000,
      request: { prompt: `prompt ${localId}`, model: 'demo-edit', ...(inputs ? { inputs } : {}) },
      images: [makeImage(0)],
    },
    T0 + at * 1000,
  );
}

let dir: string;
let history: HistoryStore;
beforeEach(async () => {
  dir = await tempFolder('input-digests');
  history = HistoryStore.open(join(dir, 'history.db'));
});
afterEach(async () => {
  history.close();
  await removeFolder(dir);
});

it('names every input of every task that has any, and nothing of one that has none', () => {
  expect(history.lineage.inputDigests()).toEqual(new Set());
  history.putMany([
    task('plain', 0),
    task('from-file', 1, {
      operation: 'fill',
      source: input('photo'),
      mask: input('mask'),
      references: [input('ref-1'), input('ref-2')],
    }),
    task('from-library', 2, {
      operation: 'fill',
      source: input('library-copy'),
      maskAlpha: input('alpha'),
      parent: { localId: 'plain', index: 0 },
    }),
    task('again', 3, { operation: 'edit', source: input('photo') }),
  ]);
  const seeds = ['photo', 'mask', 'ref-1', 'ref-2', 'library-copy', 'alpha'];
  expect(history.lineage.inputDigests()).toEqual(new Set(seeds.map(digest)));
});
