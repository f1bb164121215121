/**
 * Calls IPC handlers the way the page does: through runRequest, so every input goes through the
 * channel's schema and every answer through its output schema and the Result wrapper, from a
 * sender the test trusts (the sender check has tests of its own: ipc-main-bridge.test.ts).
 */
import { runRequest, type IpcHandlers } from '../../electron/ipc/ipc-main-bridge';
import { silentLogger, type Logger } from '../../electron/ports/logger';
import type { RequestChannel, RequestOutput, Result } from '../../shared/ipc/contract';

/** An invoke event from the page's main frame, as far as the bridge looks at it. */
export const PAGE_EVENT = { sender: {}, senderFrame: {} } as never;

/** What a test calls: a channel and the raw input the page would send. */
export type IpcCall = <C extends RequestChannel>(
  channel: C,
  raw?: unknown,
) => Promise<Result<RequestOutput<C>>>;

/** `handlers` (some of them are enough) called through runRequest from a trusted sender. */
export function ipcCaller(handlers: Partial<IpcHandlers>, logger: Logger = silentLogger): IpcCall {
  return (channel, raw) =>
    runRequest({
      channel,
      event: PAGE_EVENT,
      raw,
      handlers: handlers as IpcHandlers,
      isTrusted: () => true,
      logger,
    });
}

/** The value of an answer that must succeed; its message is thrown when it did not. */
export function okValue<T>(result: Result<T>): T {
  if (!result.ok) throw new Error(result.error.message);
  return result.value;
}
