/**
 * TaskEngine.pause()/resume(), used while the library changes folder on the one core: nothing
 * polls or downloads while paused, the work under way finishes first, and the same tasks carry
 * on afterwards with their ids, never submitted again.
 */
import { describe, expect, it } from 'vitest';
import { heldPoll } from '../../../fakes/scripted-service-client';
import { TARGET, engineHarness } from './engine-harness';
import { UNTIL } from '../../../support/waits';

describe('TaskEngine: pause and resume', () => {
  it('polls nothing while paused, then polls the same task again and never submits it twice', async () => {
    const h = engineHarness();
    h.client.durationMs = 20_000;
    await h.engine.submit({ prompt: 'paused' }, TARGET);
    await h.clock.advance(3_000);
    expect(h.client.pollsOf('task-1')).toHaveLength(1);
    await h.engine.pause();
    await h.clock.advance(60_000);
    expect(h.client.pollsOf('task-1')).toHaveLength(1);
    h.engine.resume();
    await h.clock.advance(30_000);
    expect(h.client.pollsOf('task-1').length).toBeGreaterThan(1);
    expect(h.client.submits).toHaveLength(1);
    expect(h.history.get('local-1')).toMatchObject({ status: 'completed', taskId: 'task-1' });
    expect(h.gallery.downloads).toHaveLength(1);
  });

  it('downloads and writes no sidecar while paused, and does both after', async () => {
    const h = engineHarness();
    h.client.durationMs = 3_000;
    const saved = h.gallery.script;
    // The first attempt fails: the image waits for a retry, pending.
    h.gallery.script = (record, index, attempt) =>
      attempt === 1 ? { state: 'retry', error: 'not yet' } : saved(record, index, attempt);
    await h.engine.submit({ prompt: 'images wait' }, TARGET);
    await h.clock.advance(3_000);
    expect(h.gallery.downloads).toHaveLength(1);
    await h.engine.pause();
    const sidecars = h.gallery.sidecars.length;
    h.engine.edit('local-1', (record) => ({ ...record, favourite: true }));
    await h.clock.advance(120_000);
    expect(h.gallery.downloads).toHaveLength(1);
    expect(h.gallery.sidecars).toHaveLength(sidecars);
    h.engine.resume();
    const [done] = await h.engine.whenSettled(['local-1']);
    expect(done!.images.every((image) => image.state === 'saved')).toBe(true);
    expect(h.gallery.downloads).toHaveLength(2);
    expect(h.gallery.sidecars.at(-1)?.favourite).toBe(true);
  });

  it('waits for a poll under way before it is paused', async () => {
    const h = engineHarness();
    h.client.durationMs = 20_000;
    await h.engine.submit({ prompt: 'in flight' }, TARGET);
    const { step, release } = heldPoll();
    h.client.pollSteps = [step];
    await h.clock.advance(3_000);
    expect(h.engine.live('local-1').polling).toBe(true);
    let paused = false;
    const pausing = h.engine.pause().then(() => (paused = true));
    await h.clock.advance(10_000);
    expect(paused).toBe(false);
    release();
    await pausing;
    expect(h.engine.live('local-1').polling).toBe(false);
    h.engine.resume();
    await h.clock.advance(60_000);
    expect(h.history.get('local-1')).toMatchObject({ status: 'completed', taskId: 'task-1' });
    expect(h.client.submits).toHaveLength(1);
  });

  it('announces a download given up while paused, so whoever waits for the task hears it settle', async () => {
    const h = engineHarness();
    h.client.durationMs = 3_000;
    // The first attempt fails: the image waits for its retry, still counted as a download.
    h.gallery.script = () => ({ state: 'retry', error: 'not yet' });
    await h.engine.submit({ prompt: 'retry while paused' }, TARGET);
    await h.clock.advance(3_000);
    expect(h.gallery.downloads).toHaveLength(1);
    expect(h.engine.live('local-1').downloads).toBe(1);
    const heard: number[] = [];
    const listening = h.engine.onDidUpdate(({ live }) => heard.push(live.downloads));
    await h.engine.pause();
    let settled = false;
    void h.engine.whenSettled(['local-1']).then(() => (settled = true));
    // The retry comes due while paused: it does not start, and the task has no download left.
    await h.clock.advance(120_000);
    expect(h.gallery.downloads).toHaveLength(1);
    expect(h.engine.live('local-1').downloads).toBe(0);
    expect(heard.at(-1)).toBe(0);
    await expect.poll(() => settled, UNTIL).toBe(true);
    listening.dispose();
  });
});
