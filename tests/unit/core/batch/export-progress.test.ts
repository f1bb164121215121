/**
 * A copy of chosen images reports its progress through the core's one operation runner: before
 * the first image (0 done, so the window shows the export from the moment it starts, not once
 * the first image is through), then after each image, throttled on the clock (here a manual one
 * that does not move, so only the first and the last report pass), the last one always, and the
 * images are really copied. As the core's close begins (its closing gate), a copy under way
 * stops before its next image, and the close waits for that stop; one asked after is refused.
 */
import { readdir } from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { ClosingGate } from '../../../../electron/core/base';
import { resolveInside } from '../../../../electron/core/fs/gallery-path';
import {
  CoreOperations,
  type ExportProgress,
} from '../../../../electron/core/operations/core-operations';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { ManualClock } from '../../../fakes/manual-clock';
import { exportFoldersPerTest, exportedRecord } from './export-fixtures';

const IMAGES = 7;

const folders = exportFoldersPerTest(IMAGES);

function operationsOver(record: TaskRecord, gate?: ClosingGate): CoreOperations {
  return new CoreOperations({
    ...(gate ? { gate, progressEveryMs: 0 } : {}),
    history: {} as never,
    gallery: {
      root: folders.root,
      resolve: (path: string) => resolveInside(folders.root, path),
    } as never,
    intake: {} as never,
    records: { get: (localId) => (localId === record.localId ? record : undefined) },
    clock: new ManualClock(),
  });
}

describe('exporting images through the core’s operations', () => {
  it('copies every image and reports its start and its last step, throttled on the clock', async () => {
    const record = exportedRecord(IMAGES);
    const reports: ExportProgress[] = [];
    const outcome = await operationsOver(record).exportImages(
      { localIds: ['harbour'] },
      folders.out,
      {
        onProgress: (progress) => reports.push(progress),
      },
    );
    expect(outcome).toEqual({ copied: IMAGES, failed: 0, skipped: 0 });
    expect(await readdir(folders.out)).toHaveLength(IMAGES);
    // The clock never moved: the start goes (0 done, before any copy), the steps between are held
    // back, the last goes.
    expect(reports).toEqual([
      { done: 0, total: IMAGES },
      { done: IMAGES, total: IMAGES },
    ]);
  });

  it('stops before its next image as the core’s close begins; the close waits for that stop', async () => {
    const gate = new ClosingGate();
    const operations = operationsOver(exportedRecord(IMAGES), gate);
    const steps: string[] = [];
    let closed: Promise<void> = Promise.resolve();
    const outcome = await operations.exportImages({ localIds: ['harbour'] }, folders.out, {
      onProgress: ({ done }) => {
        if (done !== 2) return;
        // The app quits while the third image waits its turn.
        closed = gate.refuseAsks().then(() => void steps.push('closed'));
      },
    });
    steps.push('export ended');
    await closed;
    expect(outcome).toEqual({ copied: 2, failed: 0, skipped: 0 });
    expect(await readdir(folders.out)).toHaveLength(2);
    expect(steps).toEqual(['export ended', 'closed']);
    const late = operations.exportImages({ localIds: ['harbour'] }, folders.out);
    await expect(late).rejects.toMatchObject({ sentence: { key: 'error.library.closing' } });
    expect(await readdir(folders.out)).toHaveLength(2);
  });
});
