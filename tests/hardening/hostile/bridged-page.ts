/**
 * A page's calls through the real bridge as main registers it (`registerIpcHandlers`: the sender
 * check, the schemas, the bound on what requests in flight hold), on a stand-in ipcMain, from the
 * app's main frame: for suites that send many requests side by side to the real handlers.
 */
import type { IpcMainInvokeEvent } from 'electron';
import { registerIpcHandlers, type IpcHandlers } from '../../../electron/ipc/ipc-main-bridge';
import { silentLogger } from '../../../electron/ports/logger';
import type { RequestChannel, Result } from '../../../shared/ipc/contract';

/** A channel called as the page calls it, with the raw input it sends. */
export type PageCall = (channel: RequestChannel, raw?: unknown) => Promise<Result<unknown>>;

/** `handlers` registered through the bridge; the cleanup unregisters them. */
export function bridgedPage(handlers: IpcHandlers, cleanups: (() => Promise<unknown>)[]): PageCall {
  const listeners = new Map<string, (event: IpcMainInvokeEvent, raw: unknown) => unknown>();
  const unregister = registerIpcHandlers(
    {
      handle: (channel, listener) => void listeners.set(channel, listener),
      removeHandler: (channel) => void listeners.delete(channel),
    },
    handlers,
    () => true,
    silentLogger,
  );
  cleanups.push(async () => unregister());
  const event = { sender: {}, senderFrame: {} } as IpcMainInvokeEvent;
  return (channel, raw) => listeners.get(channel)!(event, raw) as Promise<Result<unknown>>;
}
