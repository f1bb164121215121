/**
 * "Write metadata to files" writes the images of every call in the process a few at a time
 * (write-metadata.ts: FILES_AT_ONCE, one line for them all). A call stopped while its image waits
 * its turn (the core's close: its gate's signal) leaves the line at once: it kept its place until
 * the writes ahead ended, so the close waited for other calls' files, and the line held calls no
 * one wanted. The file writes are held here (the embed stands in for one that takes long).
 */
import { describe, expect, it, vi } from 'vitest';
import { writeMetadataToFiles } from '../../../../electron/core/batch/write-metadata';
import type * as Gallery from '../../../../electron/core/gallery';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { makeImage, makeRecord } from '../history/history-fixtures';
import { UNTIL } from '../../../support/waits';

/** The embeds asked for, by file; each ends when the test lets it. */
const held = vi.hoisted(() => ({ asked: [] as string[], release: [] as (() => void)[] }));

vi.mock('../../../../electron/core/gallery', async (original) => ({
  ...(await original<typeof Gallery>()),
  embedTriageInFile: (path: string) =>
    new Promise((resolve) => {
      held.asked.push(path);
      held.release.push(() => resolve({ unchanged: true }));
    }),
}));

const records = new Map<string, TaskRecord>(
  ['a', 'b', 'c'].map((localId) => [localId, makeRecord({ localId, images: [makeImage(0)] })]),
);

const deps = (signal?: AbortSignal) => ({
  records: { get: (id: string) => records.get(id), edit: () => records.get('a')! },
  gallery: { root: '/gallery', resolve: (relative: string) => `/gallery/${relative}` },
  ...(signal ? { signal } : {}),
});

describe('a metadata write stopped while it waits its turn', () => {
  it('leaves the line at once; the writes ahead of it go on and it writes nothing', async () => {
    const first = writeMetadataToFiles(deps(), [{ localId: 'a', index: 0 }]);
    const second = writeMetadataToFiles(deps(), [{ localId: 'b', index: 0 }]);
    await vi.waitFor(() => expect(held.asked).toHaveLength(2), UNTIL);
    const stop = new AbortController();
    let stopped: unknown = null;
    const third = writeMetadataToFiles(deps(stop.signal), [{ localId: 'c', index: 0 }]);
    void third.then((outcome) => (stopped = outcome));
    stop.abort(new Error('closing'));
    // Answered while both writes ahead still run.
    await vi.waitFor(() => expect(stopped).not.toBeNull(), UNTIL);
    expect(stopped).toEqual({ written: 0, unchanged: 0, withCredentials: 0, failed: 0 });
    for (const release of held.release.splice(0)) release();
    await Promise.all([first, second]);
    expect(held.asked).toHaveLength(2);
  });
});
