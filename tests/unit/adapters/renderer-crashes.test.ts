import { EventEmitter } from 'node:events';
import { describe, expect, it, vi } from 'vitest';
import { watchRendererCrashes } from '../../../electron/adapters/renderer-crashes';
import { RendererCrashPolicy } from '../../../electron/app/window/crash-policy';
import { silentLogger } from '../../../electron/ports/logger';
import { UNTIL } from '../../support/waits';

function fakeWindow() {
  const webContents = Object.assign(new EventEmitter(), {
    reload: vi.fn(),
    isDestroyed: () => false,
    // As Electron documents: the renderer ends, and render-process-gone says `killed`.
    forcefullyCrashRenderer: vi.fn(() =>
      webContents.emit('render-process-gone', {}, { reason: 'killed', exitCode: 9 }),
    ),
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
    await vi.waitFor(
      () => expect(reloadAnswer.win.webContents.reload).toHaveBeenCalledTimes(2),
      UNTIL,
    );
    expect(reloadAnswer.showMessageBox).toHaveBeenCalledTimes(1);
    const quitAnswer = setUp(1);
    quitAnswer.gone('crashed');
    quitAnswer.gone('oom');
    await vi.waitFor(() => expect(quitAnswer.quit).toHaveBeenCalledTimes(1), UNTIL);
    expect(quitAnswer.win.webContents.reload).toHaveBeenCalledTimes(1);
  });
});

describe('the window while its page does not respond', () => {
  /** A message box that stays open until answered, or closed through its signal (Wait). */
  function hangSetUp() {
    const win = fakeWindow();
    const recovered = vi.fn();
    const boxes: { answer: (response: number) => void; signal: AbortSignal }[] = [];
    const showMessageBox = vi.fn(
      (_window: unknown, box: { signal: AbortSignal; buttons: string[]; cancelId: number }) =>
        new Promise<{ response: number; checkboxChecked: boolean }>((resolve) => {
          const answer = (response: number) => resolve({ response, checkboxChecked: false });
          box.signal.addEventListener('abort', () => answer(box.cancelId));
          boxes.push({ answer, signal: box.signal });
        }),
    );
    watchRendererCrashes(win as never, {
      policy: new RendererCrashPolicy({ now: () => 0 }),
      logger: silentLogger,
      dialog: { showMessageBox } as never,
      onRecovered: recovered,
      quit: vi.fn(),
    });
    return { win, recovered, boxes, showMessageBox };
  }

  it('offers to reload once, and Reload ends the hung renderer and reloads the page', async () => {
    const { win, recovered, boxes, showMessageBox } = hangSetUp();
    win.emit('unresponsive');
    win.emit('unresponsive');
    expect(showMessageBox).toHaveBeenCalledTimes(1);
    const [, box] = showMessageBox.mock.calls[0]!;
    expect(box.buttons).toEqual(['Wait', 'Reload the window']);
    boxes[0]!.answer(1);
    await vi.waitFor(() => expect(win.webContents.reload).toHaveBeenCalledTimes(1), UNTIL);
    expect(win.webContents.forcefullyCrashRenderer).toHaveBeenCalledTimes(1);
    expect(recovered).toHaveBeenCalledTimes(1);
    // Hanging again later asks again.
    win.emit('unresponsive');
    expect(showMessageBox).toHaveBeenCalledTimes(2);
  });

  it('closes the box by itself when the page answers again, and reloads nothing', async () => {
    const { win, boxes, showMessageBox } = hangSetUp();
    win.emit('unresponsive');
    win.emit('responsive');
    expect(boxes[0]!.signal.aborted).toBe(true);
    win.emit('unresponsive');
    await vi.waitFor(() => expect(showMessageBox).toHaveBeenCalledTimes(2), UNTIL);
    boxes[1]!.answer(0);
    await new Promise((resolve) => setImmediate(resolve));
    expect(win.webContents.forcefullyCrashRenderer).not.toHaveBeenCalled();
    expect(win.webContents.reload).not.toHaveBeenCalled();
  });
});
