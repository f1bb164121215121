/**
 * The engine's own writes of a task (a poll, completion, a download) never carry an old copy of
 * what the user changed back over it: the user's edits are read from the stored record in the
 * same write (engine/user-edits-of.ts), whether they were made in this process or in another
 * one whose change this engine has not seen yet (the history here tells nobody of a change, as
 * a shared library's change feed may not have run).
 */
import { describe, expect, it, vi } from 'vitest';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { TARGET, engineHarness } from './engine-harness';
import { UNTIL } from '../../../support/waits';

/** What another process writes: the stored record changed behind the engine's back. */
function elsewhere(
  h: ReturnType<typeof engineHarness>,
  change: (record: TaskRecord) => TaskRecord,
): void {
  const stored = h.history.get('local-1')!;
  h.history.records.set('local-1', change(stored));
}

const completing = (h: ReturnType<typeof engineHarness>) => {
  h.client.durationMs = 9_000;
  h.client.outcomeFor = (_request, id) => ({
    status: 'completed',
    imageUrls: [`https://cdn.example.com/${id}-a.png`, `https://cdn.example.com/${id}-b.png`],
  });
};

describe('the engine writing a task the user changed', () => {
  it('keeps a star set in another process while the task was polled, through completion', async () => {
    const h = engineHarness();
    completing(h);
    await h.engine.submit({ prompt: 'a lighthouse to keep' }, TARGET);
    await h.clock.advance(3_100);
    expect(h.engine.get('local-1')?.status).toBe('processing');
    elsewhere(h, (record) => ({ ...record, favourite: true }));
    await h.clock.advance(30_000);
    const stored = h.history.get('local-1');
    expect(stored).toMatchObject({ status: 'completed', favourite: true });
    expect(stored?.images.map((image) => image.state)).toEqual(['saved', 'saved']);
  });

  it('keeps a rating and a reject set elsewhere while images download', async () => {
    const h = engineHarness();
    completing(h);
    const saved = h.gallery.script;
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    h.gallery.script = async (record, index, attempt) => {
      await held;
      return saved(record, index, attempt);
    };
    await h.engine.submit({ prompt: 'a harbour at dusk' }, TARGET);
    await h.clock.advance(12_000);
    expect(h.history.get('local-1')?.status).toBe('completed');
    elsewhere(h, (record) => ({
      ...record,
      images: record.images.map((image) =>
        image.index === 0 ? { ...image, rating: 4, flag: 'reject' as const } : image,
      ),
    }));
    release();
    await h.engine.whenSettled(['local-1']);
    await vi.waitFor(
      () =>
        expect(h.history.get('local-1')!.images.map((image) => image.state)).toEqual([
          'saved',
          'saved',
        ]),
      UNTIL,
    );
    expect(h.history.get('local-1')!.images[0]).toMatchObject({ rating: 4, flag: 'reject' });
  });

  it('writes a star set here at once, and a later poll keeps it', async () => {
    const h = engineHarness();
    completing(h);
    await h.engine.submit({ prompt: 'a kite' }, TARGET);
    await h.clock.advance(3_100);
    h.engine.edit('local-1', (record) => ({ ...record, favourite: true }));
    expect(h.history.get('local-1')?.favourite).toBe(true);
    await h.clock.advance(30_000);
    expect(h.history.get('local-1')).toMatchObject({ status: 'completed', favourite: true });
  });
});
