import { beforeEach, describe, expect, it, vi } from 'vitest';
import { progressDisplay, TaskActivity } from '../../../electron/app/os/task-activity';

const electron = vi.hoisted(() => ({
  app: { setBadgeCount: vi.fn<(count?: number) => boolean>(() => true) },
}));

vi.mock('electron', () => ({ app: electron.app }));

const { createTaskProgressPresenter } = await import('../../../electron/adapters/task-progress');

function fakeWindow(destroyed = false) {
  return {
    setProgressBar: vi.fn<(value: number, options?: { mode: string }) => void>(),
    isDestroyed: () => destroyed,
  };
}

type FakeWindow = ReturnType<typeof fakeWindow>;

function presenter(window: FakeWindow | null) {
  return createTaskProgressPresenter(() => window as never);
}

beforeEach(() => {
  electron.app.setBadgeCount.mockClear();
});

describe('createTaskProgressPresenter', () => {
  it('macOS: the dock badge count, no progress bar', () => {
    const window = fakeWindow();
    presenter(window).show(progressDisplay('darwin', 3, 0));
    expect(electron.app.setBadgeCount).toHaveBeenCalledWith(3);
    expect(window.setProgressBar).not.toHaveBeenCalled();
  });

  it('Windows: the taskbar bar, indeterminate (value 2) then a fraction then removed (-1)', () => {
    const window = fakeWindow();
    const show = presenter(window);
    show.show(progressDisplay('win32', 2, 0));
    show.show(progressDisplay('win32', 1, 1));
    show.show(progressDisplay('win32', 0, 0));
    expect(window.setProgressBar.mock.calls).toEqual([
      [2, { mode: 'indeterminate' }],
      [0.5, { mode: 'normal' }],
      [-1, { mode: 'none' }],
    ]);
    expect(electron.app.setBadgeCount).not.toHaveBeenCalled();
  });

  it('Linux: the launcher badge and the bar', () => {
    const window = fakeWindow();
    presenter(window).show(progressDisplay('linux', 1, 1));
    expect(electron.app.setBadgeCount).toHaveBeenCalledWith(1);
    expect(window.setProgressBar).toHaveBeenCalledWith(0.5, { mode: 'normal' });
  });

  it('the same display twice is applied once', () => {
    const window = fakeWindow();
    const show = presenter(window);
    show.show(progressDisplay('linux', 1, 0));
    show.show(progressDisplay('linux', 1, 0));
    expect(window.setProgressBar).toHaveBeenCalledTimes(1);
    expect(electron.app.setBadgeCount).toHaveBeenCalledTimes(1);
  });

  it('without a window (or a destroyed one) only the badge is set; refresh applies it later', () => {
    let window: FakeWindow | null = null;
    const show = createTaskProgressPresenter(() => window as never);
    show.show(progressDisplay('linux', 2, 0));
    expect(electron.app.setBadgeCount).toHaveBeenCalledWith(2);
    window = fakeWindow(true);
    show.refresh();
    expect(window.setProgressBar).not.toHaveBeenCalled();
    window = fakeWindow();
    show.refresh();
    expect(window.setProgressBar).toHaveBeenCalledWith(0, { mode: 'normal' });
  });

  it('follows task updates through TaskActivity', () => {
    const window = fakeWindow();
    const show = presenter(window);
    const activity = new TaskActivity('win32');
    const base = { hold: null, downloads: 0 } as const;
    show.show(activity.update({ ...base, localId: 'a', status: 'submitting' }));
    show.show(activity.update({ ...base, localId: 'b', status: 'processing' }));
    show.show(activity.update({ ...base, localId: 'a', status: 'completed' }));
    show.show(activity.update({ ...base, localId: 'b', status: 'failed' }));
    expect(window.setProgressBar.mock.calls).toEqual([
      [2, { mode: 'indeterminate' }],
      [0.5, { mode: 'normal' }],
      [-1, { mode: 'none' }],
    ]);
  });
});
