/**
 * On the command line: one bad record in the history (an old build's, or a
 * file edited by hand) never takes `list` down, and `rebuild` never brings back what the user
 * deleted nor trusts a sidecar's word that it is not imported. The history is real SQLite
 * written by HistoryStore, then damaged with plain SQL, as a crafted file would be.
 */
import { mkdir, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import sharp from 'sharp';
import { describe, expect, it } from 'vitest';
import { sidecarText } from '../../../electron/core/gallery/sidecar';
import { HISTORY_FILE } from '../../../electron/core/pictor-core';
import { HistoryStore } from '../../../electron/core/history/history-store';
import type { ImageRecord, TaskRecord } from '../../../shared/domain/task-record';
import { makeTaskRecord } from '../../support/task-records';
import { expectExit, useCliWorlds } from './cli-harness';
import { jsonLines } from './run-cli';

const newWorld = useCliWorlds();
const CREATED = Date.UTC(2025, 2, 3, 10, 0, 0);

function task(id: string, overrides: Partial<TaskRecord> = {}): TaskRecord {
  return makeTaskRecord(
    {
      localId: `d00d0000-0000-4000-8000-${id.padStart(12, '0')}`,
      taskId: `task-${id}`,
      request: { prompt: `Prompt ${id}` },
      status: 'failed',
      error: { kind: 'task_failed', message: 'The service could not make this image.' },
      ...overrides,
    },
    CREATED,
  );
}

function putAll(dataDir: string, records: readonly TaskRecord[]): void {
  const store = HistoryStore.open(join(dataDir, HISTORY_FILE));
  try {
    store.putMany(records);
  } finally {
    store.close();
  }
}

/** Rewrites a stored record's JSON and sort column behind the store's back. */
function damage(dataDir: string, localId: string, patch: Record<string, unknown>): void {
  const db = new DatabaseSync(join(dataDir, HISTORY_FILE));
  try {
    const row = db.prepare('SELECT record FROM tasks WHERE local_id = ?').get(localId);
    const record = { ...(JSON.parse(String(row?.['record'])) as object), ...patch };
    const createdAt = typeof patch['createdAt'] === 'number' ? patch['createdAt'] : CREATED;
    db.prepare('UPDATE tasks SET record = ?, created_at = ? WHERE local_id = ?').run(
      JSON.stringify(record),
      createdAt,
      localId,
    );
  } finally {
    db.close();
  }
}

function readBack(dataDir: string, localId: string): TaskRecord | undefined {
  const store = HistoryStore.open(join(dataDir, HISTORY_FILE));
  try {
    return store.get(localId);
  } finally {
    store.close();
  }
}

describe('pictor list with unreadable records in the history', () => {
  it.each([
    ['a date no Date can hold', { createdAt: 1e16 }],
    ['a negative date', { createdAt: -1e15 }],
    ['a fractional date', { updatedAt: CREATED + 0.5 }],
    ['a megabyte-long error', { error: { kind: 'server', message: 'x'.repeat(1 << 20) } }],
  ])('prints every other task and exits 0 (%s)', async (_what, patch) => {
    const world = await newWorld();
    const records = [task('1'), task('2', { createdAt: CREATED - 60_000 }), task('3')];
    putAll(world.dataDir, records);
    damage(world.dataDir, records[0]!.localId, patch);

    const json = await world.run(['list', '--json']);
    expectExit(json, 0);
    expect(jsonLines(json).map((line) => line.localId)).toEqual([
      records[2]!.localId,
      records[1]!.localId,
    ]);
    const human = await world.run(['list']);
    expectExit(human, 0);
    expect(human.stdout).toContain('Prompt 2');
    expect(human.stdout).toContain('Prompt 3');
    expect(human.stdout).not.toContain('Prompt 1');
  });
});

describe('pictor rebuild', () => {
  it('keeps an image the user deleted in the history deleted, and marks new tasks imported', async () => {
    const world = await newWorld();
    const gallery = join(world.dataDir, 'gallery');
    const png = await sharp({ create: { width: 5, height: 5, channels: 3, background: '#00f' } })
      .png()
      .toBuffer();
    const saved: ImageRecord = {
      index: 0,
      url: 'https://cdn.example.com/0.png',
      state: 'saved',
      file: '2025/03/known/image-1.png',
      mime: 'image/png',
      width: 5,
      height: 5,
      bytes: png.length,
      attempts: 1,
      favourite: false,
    };
    const known = task('10', { status: 'completed', error: null, folder: '2025/03/known' });
    // In the history the user deleted the image; the sidecar still says saved; the file is back.
    putAll(world.dataDir, [
      {
        ...known,
        images: [{ index: 0, url: saved.url, state: 'deleted', attempts: 1, favourite: false }],
      },
    ]);
    const fresh = task('11', { folder: '2025/03/fresh', imported: false });
    for (const [record, images] of [
      [known, [saved]],
      [fresh, []],
    ] as const) {
      const folder = join(gallery, record.folder!);
      await mkdir(folder, { recursive: true });
      await writeFile(join(folder, 'pictor.json'), sidecarText({ ...record, images: [...images] }));
    }
    await writeFile(join(gallery, '2025/03/known/image-1.png'), png);

    const run = await world.run(['rebuild', '--gallery-dir', gallery]);
    expectExit(run, 0);
    expect(run.stdout).toMatch(/Found 2 task\(s\) in the gallery; added 1 to the history/);
    expect(readBack(world.dataDir, known.localId)?.images[0]?.state).toBe('deleted');
    expect(readBack(world.dataDir, fresh.localId)?.imported).toBe(true);
  });
});
