import { beforeEach, describe, expect, it, vi } from 'vitest';

const electron = vi.hoisted(() => {
  class FakeNotification {
    static supported = true;
    static created: FakeNotification[] = [];
    static isSupported(): boolean {
      return FakeNotification.supported;
    }
    readonly handlers = new Map<string, (...args: unknown[]) => void>();
    shown = 0;
    constructor(readonly options: Record<string, unknown>) {
      FakeNotification.created.push(this);
    }
    on(event: string, handler: (...args: unknown[]) => void): this {
      this.handlers.set(event, handler);
      return this;
    }
    show(): void {
      this.shown += 1;
    }
  }
  return { Notification: FakeNotification };
});

vi.mock('electron', () => ({ Notification: electron.Notification }));

const { createDesktopNotifier } = await import('../../../electron/adapters/notifications');

beforeEach(() => {
  electron.Notification.supported = true;
  electron.Notification.created = [];
});

describe('createDesktopNotifier', () => {
  it('reports a notification the system refused, once, and stops asking', () => {
    const failures: string[] = [];
    const show = createDesktopNotifier({
      onClick: () => undefined,
      onFailed: (error) => failures.push(error),
    });
    expect(show({ title: 'Image ready', body: 'one', localId: 't1' })).toBe(true);
    const [first] = electron.Notification.created;
    first?.handlers.get('failed')?.({}, 'Notifications are not allowed for this application');
    expect(failures).toEqual(['Notifications are not allowed for this application']);
    // Asked no more: an unsigned macOS build would fail every time.
    expect(show({ title: 'Image ready', body: 'two', localId: 't2' })).toBe(false);
    expect(electron.Notification.created).toHaveLength(1);
  });

  it('shows a notification with the title and body', () => {
    const show = createDesktopNotifier({ onClick: () => undefined, icon: '/app/icon.png' });
    expect(show({ title: 'Image ready', body: 'a fox', localId: 't1' })).toBe(true);
    const [created] = electron.Notification.created;
    expect(created?.options).toEqual({
      title: 'Image ready',
      body: 'a fox',
      icon: '/app/icon.png',
    });
    expect(created?.shown).toBe(1);
  });

  it('a click calls back with the task, or null for a summary', () => {
    const clicks: (string | null)[] = [];
    const show = createDesktopNotifier({ onClick: (localId) => clicks.push(localId) });
    show({ title: 'Image ready', body: 'a', localId: 't1' });
    show({ title: '3 images ready', body: 'b', localId: null });
    for (const created of electron.Notification.created) created.handlers.get('click')?.();
    expect(clicks).toEqual(['t1', null]);
    expect(electron.Notification.created[0]?.options).not.toHaveProperty('icon');
  });

  it('where notifications are not supported, creates none and says so once', () => {
    electron.Notification.supported = false;
    const failures: string[] = [];
    const show = createDesktopNotifier({
      onClick: () => undefined,
      onFailed: (error) => failures.push(error),
    });
    expect(show({ title: 'Image ready', body: 'a', localId: 't1' })).toBe(false);
    expect(show({ title: 'Image ready', body: 'b', localId: 't2' })).toBe(false);
    expect(electron.Notification.created).toEqual([]);
    expect(failures).toHaveLength(1);
    expect(failures[0]).toMatch(/no desktop notifications/);
  });

  it('a notification that throws is reported as not shown, once, and not asked again', () => {
    const failures: string[] = [];
    const show = createDesktopNotifier({
      onClick: () => undefined,
      onFailed: (error) => failures.push(error),
    });
    vi.spyOn(electron.Notification.prototype, 'show').mockImplementationOnce(() => {
      throw new Error('no notification server');
    });
    expect(show({ title: 'x', body: 'y', localId: null })).toBe(false);
    expect(show({ title: 'x', body: 'z', localId: null })).toBe(false);
    expect(failures).toEqual(['no notification server']);
    expect(electron.Notification.created).toHaveLength(1);
  });

  it('tells once that the system showed one (true from show() only means asked)', () => {
    let shown = 0;
    const failures: string[] = [];
    const show = createDesktopNotifier({
      onClick: () => undefined,
      onShown: () => (shown += 1),
      onFailed: (error) => failures.push(error),
    });
    expect(show({ title: 'a', body: 'a', localId: 't1' })).toBe(true);
    expect(shown).toBe(0);
    expect(show({ title: 'b', body: 'b', localId: 't2' })).toBe(true);
    for (const created of electron.Notification.created) created.handlers.get('show')?.({});
    expect(shown).toBe(1);
    expect(failures).toEqual([]);
  });
});

describe('with the core policy', () => {
  it('a task that finishes while the window is in the background becomes one clickable banner', async () => {
    const { NotificationPolicy } = await import('../../../electron/app/os/notification-policy');
    const { ManualClock } = await import('../../fakes/manual-clock');
    const { makeImage, makeRecord } = await import('../core/history/history-fixtures');
    const clock = new ManualClock();
    const clicks: (string | null)[] = [];
    const policy = new NotificationPolicy({
      clock,
      isEnabled: () => true,
      isWindowFocused: () => false,
      show: createDesktopNotifier({ onClick: (localId) => clicks.push(localId) }),
    });
    const task = makeRecord({ localId: 't9', status: 'processing', images: [] });
    policy.observe(task);
    policy.observe({ ...task, status: 'completed', images: [makeImage(0)] });
    await clock.advance(2_000);
    const [banner] = electron.Notification.created;
    expect(banner?.options).toMatchObject({ title: 'Image ready', body: 'prompt of t9' });
    banner?.handlers.get('click')?.();
    expect(clicks).toEqual(['t9']);
  });
});
