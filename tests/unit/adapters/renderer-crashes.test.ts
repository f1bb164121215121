import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { watchRendererCrashes } from '../../../electron/adapters/renderer-crashes';
import { RendererCrashPolicy } from '../../../electron/core/window/crash-policy';
import { silentLogger } from '../../../electron/ports/logger';

function fakeWindow() {
  const webContents = Object.assign(new EventEmitter(), {
    reload: vi.fn(),
    isDestroyed: () => false,
  });
  return Object.assign(new EventEmitter(), { webContents, isDestroyed: () => false });
}

function setUp(response: number) {
  const win = fakeWindow();
  const recovered = vi.fn();
  const quit = vi.fn();
  const showMessageBox = vi.fn(async () => ({ response, checkboxChecked: false }));
  watchRendererCrashes(win as never, {
    policy: new RendererCrashPolicy({ now: () => 0, maxReloads: 1 }),
    logger: silentLogger,
    dialog: { showMessageBox } as never,
    onRecovered: recovered,
    quit,
  });
  const gone = (reason: string) =>
    win.webContents.emit('render-process-gone', {}, { reason, exitCode: 1 });
  return { win, recovered, quit, showMessageBox, gone };
}

describe('the window after its renderer dies', () => {
  it('reloads and tells the page, and ignores a clean exit', () => {
    const { win, recovered, gone } = setUp(0);
    gone('clean-exit');
    expect(win.webContents.reload).not.toHaveBeenCalled();
    gone('crashed');
    expect(win.webContents.reload).toHaveBeenCalledTimes(1);
    expect(recovered).toHaveBeenCalledTimes(1);
  });

  it('asks after repeated crashes: Reload starts afresh, Quit quits', async () => {
    const reloadAnswer = setUp(0);
    reloadAnswer.gone('crashed');
    reloadAnswer.gone('crashed');
    await vi.waitFor(() => expect(reloadAnswer.win.webContents.reload).toHaveBeenCalledTimes(2));
    expect(reloadAnswer.showMessageBox).toHaveBeenCalledTimes(1);
    const quitAnswer = setUp(1);
    quitAnswer.gone('crashed');
    quitAnswer.gone('oom');
    await vi.waitFor(() => expect(quitAnswer.quit).toHaveBeenCalledTimes(1));
    expect(quitAnswer.win.webContents.reload).toHaveBeenCalledTimes(1);
  });
});
