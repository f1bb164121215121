import { describe, expect, it } from 'vitest';
import { TARGET, engineHarness } from './engine-harness';

describe('TaskEngine: images', () => {
  it('downloads every image of a completed task at once and writes the sidecar', async () => {
    const h = engineHarness();
    h.client.outcomeFor = (_request, id) => ({
      status: 'completed',
      imageUrls: [
        `https://cdn.example.com/${id}/1.png`,
        `https://cdn.example.com/${id}/2.png`,
        `https://cdn.example.com/${id}/3.png`,
      ],
    });
    await h.engine.submit({ prompt: 'three images' }, TARGET);
    await h.clock.advance(12_000);
    const record = h.history.get('local-1')!;
    expect(record.images.map((image) => image.state)).toEqual(['saved', 'saved', 'saved']);
    expect(new Set(h.gallery.downloads.map((d) => d.index))).toEqual(new Set([0, 1, 2]));
    expect(h.gallery.downloads.every((d) => d.baseUrl === 'https://api.example.com')).toBe(true);
    expect(record.folder).toBe('2026/01/local-1');
    await h.engine.stop();
    expect(h.gallery.sidecars.at(-1)!.images.every((image) => image.state === 'saved')).toBe(true);
  });

  it('retries a transient failure with backoff, then records the image as saved', async () => {
    const h = engineHarness();
    const saved = h.gallery.script;
    h.gallery.script = (record, index, attempt) =>
      attempt < 3
        ? { state: 'retry', error: 'The server answered 503.', retryAfterMs: 5_000 }
        : saved(record, index, attempt);
    await h.engine.submit({ prompt: 'retry me' }, TARGET);
    await h.clock.advance(12_000);
    expect(h.history.get('local-1')!.images[0]).toMatchObject({ state: 'pending', attempts: 1 });
    await h.clock.advance(30_000);
    expect(h.history.get('local-1')!.images[0]).toMatchObject({ state: 'saved', attempts: 3 });
    expect(h.history.get('local-1')!.images[0]!.error).toBeUndefined();
  });

  it('stops retrying after the allowed attempts, keeps the image pending and settles', async () => {
    const h = engineHarness({ maxDownloadAttempts: 2 });
    h.gallery.script = () => ({ state: 'retry', error: 'Network down.' });
    const [record] = await h.engine.submit({ prompt: 'never arrives' }, TARGET);
    const settled = h.engine.whenSettled([record!.localId]);
    await h.clock.advance(120_000);
    const [done] = await settled;
    expect(done!.images[0]).toMatchObject({ state: 'pending', attempts: 2 });
    expect(done!.images[0]!.error).toMatch(/try again at the next start/);
    expect(h.gallery.downloads).toHaveLength(2);
  });

  it('labels expired and invalid images and lets the user retry the expired one', async () => {
    const h = engineHarness();
    h.client.outcomeFor = () => ({
      status: 'completed',
      imageUrls: ['https://cdn.example.com/a.png', 'https://cdn.example.com/b.png', null],
    });
    h.gallery.script = (_record, index) =>
      index === 0
        ? { state: 'expired', error: 'The image address has expired (403).' }
        : { state: 'invalid', error: 'That was an HTML page, not an image.' };
    await h.engine.submit({ prompt: 'mixed' }, TARGET);
    await h.clock.advance(12_000);
    const record = h.history.get('local-1')!;
    expect(record.images.map((image) => image.state)).toEqual(['expired', 'invalid', 'invalid']);
    expect(record.images[2]!.error).toMatch(/without an address/);
    h.gallery.script = new (await import('../../../fakes/fake-gallery')).FakeGallery().script;
    h.engine.resumeTask('local-1');
    await h.clock.advance(1_000);
    expect(h.history.get('local-1')!.images.map((image) => image.state)).toEqual([
      'saved',
      'invalid',
      'invalid',
    ]);
  });

  it('a completed task with no images says so', async () => {
    const h = engineHarness();
    h.client.outcomeFor = () => ({ status: 'completed', imageUrls: [] });
    await h.engine.submit({ prompt: 'empty' }, TARGET);
    await h.clock.advance(12_000);
    expect(h.history.get('local-1')).toMatchObject({
      status: 'completed',
      images: [],
      error: { kind: 'protocol' },
    });
  });

  it('a failed task carries the service’s reason', async () => {
    const h = engineHarness();
    h.client.outcomeFor = () => ({
      status: 'failed',
      message: 'Content policy violation (moderation)',
    });
    await h.engine.submit({ prompt: 'not allowed' }, TARGET);
    await h.clock.advance(12_000);
    expect(h.history.get('local-1')).toMatchObject({
      status: 'failed',
      error: { kind: 'task_failed', message: 'Content policy violation (moderation)' },
    });
  });

  it('a download that throws (disk full) is retried, not fatal', async () => {
    const h = engineHarness();
    const saved = h.gallery.script;
    h.gallery.script = (record, index, attempt) => {
      if (attempt === 1) throw Object.assign(new Error('no space'), { code: 'ENOSPC' });
      return saved(record, index, attempt);
    };
    await h.engine.submit({ prompt: 'disk full once' }, TARGET);
    await h.clock.advance(12_000);
    expect(h.history.get('local-1')!.images[0]).toMatchObject({
      state: 'pending',
      error: expect.stringContaining('ENOSPC'),
    });
    await h.clock.advance(10_000);
    expect(h.history.get('local-1')!.images[0]!.state).toBe('saved');
  });

  it('keeps working in memory when the history cannot be written, and catches up later', async () => {
    const h = engineHarness();
    // The disk fills once the request has left (its mark was written before: send-mark.ts).
    h.client.submitSteps = [
      async () => {
        h.history.failWrites = true;
        return undefined as never;
      },
    ];
    await h.engine.submit({ prompt: 'write fails' }, TARGET);
    await h.clock.advance(6_000);
    expect(h.history.get('local-1')!.status).toBe('submitting');
    expect(h.engine.get('local-1')!.status).toBe('processing');
    h.history.failWrites = false;
    await h.clock.advance(10_000);
    expect(h.history.get('local-1')).toMatchObject({ status: 'completed', taskId: 'task-1' });
    expect(h.client.submits).toHaveLength(1);
  });

  it('sends nothing when the history cannot keep the new task, and says why', async () => {
    const h = engineHarness();
    h.history.failWrites = true;
    await expect(h.engine.submit({ prompt: 'disk full' }, TARGET, 3)).rejects.toThrow(
      /could not save the new task to its history, so nothing was sent/,
    );
    await h.clock.advance(10_000);
    expect(h.client.submits).toHaveLength(0);
    expect(h.engine.get('local-1')).toBeUndefined();
    h.history.failWrites = false;
    const [record] = await h.engine.submit({ prompt: 'space again' }, TARGET);
    await h.clock.advance(30_000);
    expect(h.history.get(record!.localId)).toMatchObject({ status: 'completed' });
    expect(h.client.submits).toHaveLength(1);
  });

  it('emits updates with the next poll time for the UI', async () => {
    const h = engineHarness();
    const seen: { status: string; nextPollAt: number | null }[] = [];
    h.engine.onDidUpdate(({ record, live }) =>
      seen.push({ status: record.status, nextPollAt: live.nextPollAt }),
    );
    await h.engine.submit({ prompt: 'events' }, TARGET);
    await h.clock.advance(4_000);
    const processing = seen.filter((event) => event.status === 'processing');
    expect(processing.length).toBeGreaterThan(0);
    expect(processing.at(-1)!.nextPollAt).toBeGreaterThan(h.clock.now());
  });

  it('remove() stops watching and deletes the record', async () => {
    const h = engineHarness();
    await h.engine.submit({ prompt: 'remove me' }, TARGET);
    await h.clock.advance(4_000);
    const polls = h.client.polls.length;
    expect(await h.engine.remove('local-1')).toBe(true);
    await h.clock.advance(30_000);
    expect(h.client.polls.length).toBe(polls);
    expect(h.history.get('local-1')).toBeUndefined();
  });
});

describe('TaskEngine: edits', () => {
  it('edit() writes through the same path as the engine and announces the change', async () => {
    const h = engineHarness();
    await h.engine.submit({ prompt: 'favourite me' }, TARGET);
    await h.clock.advance(12_000);
    const seen: boolean[] = [];
    h.engine.onDidUpdate(({ record }) => seen.push(record.favourite));
    const edited = h.engine.edit('local-1', (record) => ({ ...record, favourite: true }));
    expect(edited.favourite).toBe(true);
    expect(h.history.get('local-1')!.favourite).toBe(true);
    expect(seen).toEqual([true]);
    expect(() => h.engine.edit('missing', (record) => record)).toThrow(/not in the history/);
    expect(() => h.engine.edit('local-1', (record) => ({ ...record, localId: 'other' }))).toThrow();
  });

  it('an edit of a processing task is not lost when the next poll lands', async () => {
    const h = engineHarness();
    h.client.durationMs = 9_000;
    await h.engine.submit({ prompt: 'still running' }, TARGET);
    await h.clock.advance(1_000);
    h.engine.edit('local-1', (record) => ({ ...record, favourite: true }));
    await h.clock.advance(12_000);
    expect(h.history.get('local-1')).toMatchObject({ status: 'completed', favourite: true });
  });
});
