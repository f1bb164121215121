import { describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import type { NotificationContent } from '../../../../electron/app/os/notification-policy';
import { excerpt, NotificationPolicy } from '../../../../electron/app/os/notification-policy';
import { ManualClock } from '../../../fakes/manual-clock';
import { saying } from '../../../../electron/core/engine/task-transitions';
import { setMainLanguage } from '../../../../electron/app/i18n/main-text';
import { localeInfo } from '../../../../shared/domain/locales';
import { MainCatalogue } from '../../../../shared/i18n/main-catalogue';
import { englishText, sentence } from '../../../../shared/i18n/sentence';
import { makeImage, makeRecord } from '../../core/history/history-fixtures';

function setup(options: { enabled?: boolean; focused?: boolean; windowMs?: number } = {}) {
  const clock = new ManualClock();
  const state = { enabled: options.enabled ?? true, focused: options.focused ?? false };
  const shown: NotificationContent[] = [];
  const policy = new NotificationPolicy({
    clock,
    isEnabled: () => state.enabled,
    isWindowFocused: () => state.focused,
    show: (content) => shown.push(content),
    ...(options.windowMs === undefined ? {} : { batchWindowMs: options.windowMs }),
  });
  return { clock, state, shown, policy };
}

function processing(localId: string, prompt = `a prompt for ${localId}`): TaskRecord {
  return makeRecord({ localId, status: 'processing', images: [], request: { prompt } });
}

function completed(record: TaskRecord, images = [makeImage(0)]): TaskRecord {
  return { ...record, status: 'completed', images };
}

function failed(record: TaskRecord, message = 'The service refused the prompt.'): TaskRecord {
  return { ...record, status: 'failed', error: { kind: 'task_failed', message } };
}

describe('one task', () => {
  it('completed: "Image ready" with the prompt excerpt, after the batch window', async () => {
    const { clock, shown, policy } = setup();
    const task = processing('t1', 'A red fox   in\nfresh snow');
    policy.observe(task);
    policy.observe(completed(task));
    expect(shown).toEqual([]);
    await clock.advance(1_999);
    expect(shown).toEqual([]);
    await clock.advance(1);
    expect(shown).toEqual([
      { title: 'Image ready', body: 'A red fox in fresh snow', localId: 't1' },
    ]);
  });

  it('several images of one task say how many', async () => {
    const { clock, shown, policy } = setup();
    const task = processing('t1');
    policy.observe(task);
    policy.observe(completed(task, [makeImage(0), makeImage(1), makeImage(2)]));
    await clock.advance(2_000);
    expect(shown[0]!.title).toBe('3 images ready');
  });

  it('failed: "Generation failed" with the reason and the prompt', async () => {
    const { clock, shown, policy } = setup();
    const task = processing('t1', 'a cat');
    policy.observe(task);
    policy.observe(failed(task));
    await clock.advance(2_000);
    expect(shown).toEqual([
      { title: 'Generation failed', body: 'The service refused the prompt.\na cat', localId: 't1' },
    ]);
  });

  it.each(['submit_failed', 'submit_unknown', 'not_found'] as const)(
    '%s is a failure too',
    async (status) => {
      const { clock, shown, policy } = setup();
      const task = { ...processing('t1'), status: 'submitting' as const };
      policy.observe(task);
      policy.observe({ ...task, status, error: { kind: 'network', message: 'No answer.' } });
      await clock.advance(2_000);
      expect(shown[0]).toMatchObject({ title: 'Generation failed', localId: 't1' });
      expect(shown[0]!.body).toMatch(/^No answer\./);
    },
  );

  it('a failure with a catalogue sentence reads in the main language, task and image alike', async () => {
    const { clock, shown, policy } = setup();
    const said = sentence('error.library.taskNotFound');
    const image = sentence('error.library.imageNotSaved', { reason: 'ENOSPC', last: 'no' });
    setMainLanguage('en-XA');
    try {
      const task = processing('t1', 'p');
      const other = processing('t2', 'q');
      policy.observe(task);
      policy.observe(other);
      policy.observe({ ...task, status: 'not_found', error: saying('not_found', said) });
      await clock.advance(2_000);
      policy.observe(
        completed(other, [
          makeImage(0, { state: 'invalid', error: englishText(image), errorSentence: image }),
        ]),
      );
      await clock.advance(2_000);
      const pseudo = new MainCatalogue(localeInfo('en-XA')!, undefined);
      expect(shown.map((content) => content.body)).toEqual([
        `${excerpt(pseudo.text(said.key), 200)}\np`,
        `${excerpt(pseudo.text(image.key, image.params), 200)}\nq`,
      ]);
      expect(shown[1]!.body).toContain('ENOSPC');
      expect(shown[0]!.body).not.toContain(englishText(said));
    } finally {
      setMainLanguage('system');
    }
  });

  it('waits for the downloads: completed with images pending is not ready yet', async () => {
    const { clock, shown, policy } = setup();
    const task = processing('t1');
    policy.observe(task);
    policy.observe(completed(task, [makeImage(0, { state: 'pending' })]));
    await clock.advance(5_000);
    expect(shown).toEqual([]);
    policy.observe(completed(task, [makeImage(0)]));
    await clock.advance(2_000);
    expect(shown).toHaveLength(1);
  });

  it('completed with no image saved is a failure with the image error', async () => {
    const { clock, shown, policy } = setup();
    const task = processing('t1', 'p');
    policy.observe(task);
    policy.observe(
      completed(task, [makeImage(0, { state: 'expired', error: 'The link expired.' })]),
    );
    await clock.advance(2_000);
    expect(shown[0]).toMatchObject({ title: 'Generation failed', body: 'The link expired.\np' });
  });

  it('notifies once per finish, not again on later updates of the finished task', async () => {
    const { clock, shown, policy } = setup();
    const task = processing('t1');
    policy.observe(task);
    const done = completed(task);
    policy.observe(done);
    policy.observe({ ...done, favourite: true });
    await clock.advance(10_000);
    policy.observe({ ...done, favourite: false });
    await clock.advance(10_000);
    expect(shown).toHaveLength(1);
  });

  it('a task finished before this run (never seen unfinished) is not announced', async () => {
    const { clock, shown, policy } = setup();
    policy.observe(completed(processing('old')));
    policy.observe(failed(processing('older')));
    await clock.advance(10_000);
    expect(shown).toEqual([]);
  });

  it('a task resumed and finished again is announced again', async () => {
    const { clock, shown, policy } = setup();
    const task = processing('t1');
    policy.observe(task);
    policy.observe(failed(task));
    await clock.advance(2_000);
    policy.observe(task);
    policy.observe(completed(task));
    await clock.advance(2_000);
    expect(shown.map((content) => content.title)).toEqual(['Generation failed', 'Image ready']);
  });

  it('a removed task is not announced', async () => {
    const { clock, shown, policy } = setup();
    const task = processing('t1');
    policy.observe(task);
    policy.observe(completed(task));
    policy.forget('t1');
    await clock.advance(2_000);
    expect(shown).toEqual([]);
  });
});

describe('setting and focus', () => {
  it('nothing when the setting is off', async () => {
    const { clock, shown, policy } = setup({ enabled: false });
    const task = processing('t1');
    policy.observe(task);
    policy.observe(completed(task));
    await clock.advance(2_000);
    expect(shown).toEqual([]);
  });

  it('the setting turned off during the batch window drops the batch', async () => {
    const { clock, state, shown, policy } = setup();
    const task = processing('t1');
    policy.observe(task);
    policy.observe(completed(task));
    state.enabled = false;
    await clock.advance(2_000);
    expect(shown).toEqual([]);
  });

  it('nothing while the window has focus, and not later either', async () => {
    const { clock, state, shown, policy } = setup({ focused: true });
    const task = processing('t1');
    policy.observe(task);
    policy.observe(completed(task));
    state.focused = false;
    await clock.advance(5_000);
    expect(shown).toEqual([]);
  });

  it('the window focused during the batch window drops the batch', async () => {
    const { clock, state, shown, policy } = setup();
    const task = processing('t1');
    policy.observe(task);
    policy.observe(completed(task));
    state.focused = true;
    await clock.advance(2_000);
    expect(shown).toEqual([]);
  });
});

describe('batches', () => {
  it('tasks finishing within the window make one summary', async () => {
    const { clock, shown, policy } = setup();
    const tasks = ['a', 'b', 'c', 'd', 'e'].map((id) => processing(id, `prompt ${id}`));
    tasks.forEach((task) => policy.observe(task));
    policy.observe(completed(tasks[0]!));
    await clock.advance(500);
    policy.observe(completed(tasks[1]!, [makeImage(0), makeImage(1)]));
    policy.observe(failed(tasks[2]!));
    policy.observe(completed(tasks[3]!));
    await clock.advance(1_000);
    policy.observe(failed(tasks[4]!));
    await clock.advance(500);
    expect(shown).toEqual([
      {
        title: '4 images ready and 2 generations failed',
        body: '“prompt a”, “prompt b”, “prompt c”, and 2 more',
        localId: null,
      },
    ]);
  });

  it('a task finishing after the window starts the next notification', async () => {
    const { clock, shown, policy } = setup({ windowMs: 1_000 });
    const [a, b] = [processing('a'), processing('b')];
    policy.observe(a);
    policy.observe(b);
    policy.observe(completed(a));
    await clock.advance(1_000);
    policy.observe(completed(b));
    await clock.advance(1_000);
    expect(shown.map((content) => content.localId)).toEqual(['a', 'b']);
  });

  it('dispose drops what waits', async () => {
    const { clock, shown, policy } = setup();
    const task = processing('t1');
    policy.observe(task);
    policy.observe(completed(task));
    policy.dispose();
    await clock.advance(5_000);
    expect(shown).toEqual([]);
    expect(clock.pending).toBe(0);
  });
});

describe('excerpt', () => {
  it('keeps short text on one line', () => {
    expect(excerpt('  a\n\tb  ', 10)).toBe('a b');
  });

  it('cuts long text at a word with an ellipsis', () => {
    expect(excerpt('the quick brown fox jumps over the lazy dog', 20)).toBe('the quick brown fox…');
  });

  it('cuts a long word where it must', () => {
    expect(excerpt('x'.repeat(50), 10)).toBe(`${'x'.repeat(9)}…`);
  });
});
