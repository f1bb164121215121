/**
 * A library export (`pictor export`, the window's Export through the same core operation) of a
 * library holding tasks a newer Pictor made: a status this version does not know, or a service it
 * does not know with no cost in the ledger. This version cannot read them, so they are not in the
 * archive; the export said nothing of them (a whole-library export skipped them silently, one
 * named by its id was "not in this library's history"). Now each is named as left out, and why,
 * in the summary and on the command line, whole library or by id. A task this version reads,
 * with fields a newer Pictor added (its own, its request's, an image's), kept them in the history
 * (history-statements.ts) but lost them in the archive's sidecar: now the sidecar keeps them, as
 * a write does. Controls: a library without such tasks exports with nothing left out, and a
 * sidecar without such fields is the record as read.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { HISTORY_FILE } from '../../../electron/core/pictor-core';
import { archiveEntries } from '../../support/archive-entries';
import { makeImage, makeTaskRecord } from '../../support/task-records';
import { describeRun, runCli } from '../../integration/cli/run-cli';
import { runOnHistoryFile, withHistoryFile } from '../../support/history-file';
import { removeFolder, tempFolder } from '../../support/temp-folders';

let dir: string;
let data: string;
beforeEach(async () => {
  dir = await tempFolder('newer-export');
  data = join(dir, 'data');
  await mkdir(data, { mode: 0o700 });
});
afterEach(async () => {
  await removeFolder(dir);
});

/** `sql` run on the file as another program (a newer Pictor) would. */
function rawly(sql: string, ...params: string[]): void {
  runOnHistoryFile(join(data, HISTORY_FILE), sql, ...params);
}

/** Three tasks of this version; then a newer Pictor's state in one and its service in another. */
function library(newer: boolean): void {
  withHistoryFile(join(data, HISTORY_FILE), (store) => {
    for (const localId of ['ours', 'later-state', 'later-service']) {
      store.put(makeTaskRecord({ localId, images: [{ ...makeImage(0), state: 'expired' }] }));
    }
  });
  if (!newer) return;
  rawly(
    `UPDATE tasks SET status = 'upscaling', record = json_set(record, '$.status', 'upscaling')
     WHERE local_id = ?`,
    'later-state',
  );
  rawly(
    `UPDATE tasks SET provider = 'midjourney',
       record = json_set(record, '$.provider', 'midjourney') WHERE local_id = ?`,
    'later-service',
  );
}

const exportCli = (file: string, ...rest: string[]) =>
  runCli(['export', join(dir, file), '--data-dir', data, ...rest], { home: dir });

const LEFT_OUT = (localId: string) =>
  new RegExp(
    `^Left out ${localId}: A newer version of Pictor made this task; this version cannot read it, so it is not in the archive\\. It stays in the library as it is\\.$`,
    'm',
  );

describe('an export of a library holding a newer Pictor’s tasks', () => {
  it('names each as left out, and why, for the whole library', async () => {
    library(true);
    const run = await exportCli('all.zip');
    // 4: the archive is written, something was left out (as for an unreadable image).
    expect(run.code, describeRun(run)).toBe(4);
    expect(run.stderr).toMatch(/^Exporting: 1 of 1 task\(s\)$/m);
    expect(run.stdout).toMatch(/^Exported 1 task\(s\) and 0 image\(s\)/m);
    expect(run.stderr, describeRun(run)).toMatch(LEFT_OUT('later-service'));
    expect(run.stderr, describeRun(run)).toMatch(LEFT_OUT('later-state'));
  });

  it('names one asked for by its id, the others exported', async () => {
    library(true);
    const run = await exportCli('some.zip', '--task', 'later-service', '--task', 'ours');
    expect(run.code, describeRun(run)).toBe(4);
    expect(run.stdout).toMatch(/^Exported 1 task\(s\)/m);
    expect(run.stderr, describeRun(run)).toMatch(LEFT_OUT('later-service'));
    expect(run.stderr).not.toMatch(/later-state/);
  });

  it('a library without any exports with nothing left out', async () => {
    library(false);
    const run = await exportCli('plain.zip');
    expect(run.code, describeRun(run)).toBe(0);
    expect(run.stdout).toMatch(/^Exported 3 task\(s\)/m);
    expect(run.stderr).not.toMatch(/Left out/);
  });

  it('keeps in a task’s sidecar the fields a newer Pictor added to it', async () => {
    library(false);
    rawly(
      `UPDATE tasks SET record = json_set(record, '$.futureTop', 'kept',
         '$.request.futureStrength', 0.7, '$.images[0].futureNote', json('{"by":"newer"}'))
       WHERE local_id = ?`,
      'ours',
    );
    const run = await exportCli('kept.zip');
    expect(run.code, describeRun(run)).toBe(0);
    const records = await sidecarRecords(join(dir, 'kept.zip'));
    expect(records.get('ours')).toMatchObject({
      futureTop: 'kept',
      request: { prompt: 'A lighthouse at dusk', futureStrength: 0.7 },
      images: [{ index: 0, state: 'expired', futureNote: { by: 'newer' } }],
    });
    expect(records.get('later-state')).not.toHaveProperty('futureTop');
    expect(JSON.stringify(records.get('later-state'))).not.toMatch(/future/);
  });
});

/** Each task sidecar's record in the archive, by local id (read with the import's reader). */
async function sidecarRecords(file: string): Promise<Map<string, Record<string, unknown>>> {
  const records = new Map<string, Record<string, unknown>>();
  for (const [path, data] of await archiveEntries(file)) {
    if (!path.endsWith('/pictor.json')) continue;
    const record = (JSON.parse(data.toString('utf8')) as { record: Record<string, unknown> })
      .record;
    records.set(String(record['localId']), record);
  }
  return records;
}
