/** Binds the typed handlers to Electron's ipcMain (the only file besides the bridge that may). */
import { ipcMain } from 'electron';
import type { Logger } from '../ports/logger';
import { registerIpcHandlers, type IpcHandlers, type SenderCheck } from './ipc-main-bridge';

export function installIpc(
  handlers: IpcHandlers,
  isTrusted: SenderCheck,
  logger: Logger,
): () => void {
  return registerIpcHandlers(ipcMain, handlers, isTrusted, logger);
}
