/**
 * What a task's row says about time and progress, from records the real engine wrote on the
 * manual clock: the wait is counted from the ask (before the submit's round trip) to the last
 * image saved (after the downloads), and a service that says how far a task is gets its
 * percentage shown.
 */
import { describe, expect, it } from 'vitest';
import { TaskEngine } from '../../../../electron/core/engine/task-engine';
import { describeStatus } from '../../../../renderer/features/tasks/task-status';
import { FakeGallery } from '../../../fakes/fake-gallery';
import { InMemoryHistory } from '../../../fakes/in-memory-history';
import { ManualClock } from '../../../fakes/manual-clock';
import { ScriptedServiceClient } from '../../../fakes/scripted-service-client';
import { StaticCredentials } from '../../../fakes/static-credentials';
import { targetAt } from '../../../support/submit-target';

/** The engine over a service whose submit answers in 2 s and whose images take 3 s to save. */
function slowService() {
  const clock = new ManualClock();
  const later = (ms: number) => new Promise<void>((resolve) => clock.setTimeout(resolve, ms));
  const client = new ScriptedServiceClient(clock);
  client.durationMs = 3_000;
  const submit = client.submit.bind(client);
  client.submit = async (...args) => {
    await later(2_000);
    return submit(...args);
  };
  const gallery = new FakeGallery();
  const save = gallery.script;
  gallery.script = async (...args) => {
    await later(3_000);
    return save(...args);
  };
  const engine = new TaskEngine({
    client,
    history: new InMemoryHistory(),
    gallery,
    credentials: new StaticCredentials('https://api.example.com', 'sk-test'),
    clock,
    random: () => 0.5,
  });
  engine.start();
  return { clock, client, engine };
}

describe('the time a task took', () => {
  it('is the whole wait: from the ask to the last image saved', async () => {
    const { clock, engine } = slowService();
    const asked = clock.now();
    const [task] = await engine.submit(
      { prompt: 'a slow kite' },
      targetAt('https://api.example.com'),
    );
    // Submit answered at 2 s, completed at the first check (5 s), image saved at 8 s.
    await clock.advance(20_000);
    const record = engine.get(task!.localId)!;
    expect(record.status).toBe('completed');
    expect(record.images[0]!.savedAt! - asked).toBe(8_000);
    const view = describeStatus({ record, live: null }, clock.now());
    expect(view.sentence).toBe('1 image · took 8s');
  });

  it('counts a running task’s time from the ask, not from the submit’s answer', async () => {
    const { clock, engine } = slowService();
    const [task] = await engine.submit(
      { prompt: 'a slow kite' },
      targetAt('https://api.example.com'),
    );
    await clock.advance(4_000);
    const record = engine.get(task!.localId)!;
    expect(record.status).toBe('processing');
    const view = describeStatus({ record, live: engine.live(task!.localId) }, clock.now());
    expect(view.sentence).toMatch(/^Running for 4s/);
  });
});

describe('a task’s progress', () => {
  it('shows the percentage the service last said, and nothing when it says none', async () => {
    const { clock, client, engine } = slowService();
    client.durationMs = 60_000;
    const getTask = client.getTask.bind(client);
    let said: unknown = 42;
    client.getTask = async (...args) => {
      const task = await getTask(...args);
      return task.status === 'processing' && typeof said === 'number'
        ? { ...task, progress: said }
        : task;
    };
    const [task] = await engine.submit(
      { prompt: 'a kite with progress' },
      targetAt('https://api.example.com'),
    );
    await clock.advance(6_000);
    const live = engine.live(task!.localId);
    expect(live.progress).toBe(42);
    const record = engine.get(task!.localId)!;
    expect(describeStatus({ record, live }, clock.now()).sentence).toMatch(/^42% done · Running/);
    said = undefined;
    await clock.advance(3_000);
    expect(engine.live(task!.localId).progress).toBeUndefined();
  });
});
