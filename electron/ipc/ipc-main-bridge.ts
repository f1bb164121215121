/**
 * The only place the main process touches ipcMain and webContents.send (lint bans them elsewhere).
 * Every request: sender checked, input parsed with its channel's schema, taken within the bound on
 * what the page's requests in flight hold (held-requests.ts), handler run, output parsed (a
 * whitelist: unknown fields are dropped), and a Result returned instead of a throw.
 */
import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import type { z } from 'zod';
import { REQUEST_CHANNEL_NAMES } from '../../shared/ipc/channels';
import {
  events,
  requests,
  type EventChannel,
  type EventPayload,
  type RequestChannel,
  type RequestOutput,
  type Result,
} from '../../shared/ipc/contract';
import { englishText, sentence } from '../../shared/i18n/sentence';
import { cleanText } from '../../shared/service/wire';
import type { Logger } from '../ports/logger';
import { HeldRequests } from './held-requests';
import { toIpcError } from './ipc-errors';

/** Channels whose input carries a secret (a key): nothing of it goes into errors or logs. */
const SECRET_INPUT = new Set<RequestChannel>([
  'keys:set',
  'service:testConnection',
  'service:testService',
]);

/** Longest refusal detail returned or logged. */
const MAX_DETAIL = 200;
/** What a refused request says (the page shows the sentence in its language). */
const UNTRUSTED = sentence('error.library.untrustedSender');
const BAD_REQUEST = sentence('error.library.badRequest');
const TOO_MANY = sentence('error.library.tooManyRequests');

type ParsedInput<C extends RequestChannel> = z.infer<(typeof requests)[C]['input']>;

/**
 * The schema's verdict on a page's input. zod's length checks also run on a non-string that has
 * a `length` property, and throw while describing a hostile one (an object with no prototype):
 * whatever the schema cannot check is refused like what it rejects.
 */
function readInput<R>(parse: () => R): R | { success: false; error: null } {
  try {
    return parse();
  } catch {
    return { success: false, error: null };
  }
}

/**
 * A page's request is parsed by zod's interpreter, not by a parser zod generates for the schema
 * (with `new Function`, at the schema's first parse): each input is parsed once, and generating
 * does not pay back on them. Measured on `triage:apply` (loaded 2-core machine): 10,000 image
 * references 4.3–4.6 ms interpreted, 4.6–5.8 ms generated; one rating's input 0.02 and 0.01 ms;
 * the first parse in a fresh process, which the session's first keypress pays, a median of
 * 2.5 ms of CPU interpreted against 3.7 ms generating (5 processes each).
 */
const INPUT_PARSE = { jitless: true } as const;

/** Who asked: for the few handlers that act on the asking page (drag and drop). */
export interface HandlerContext {
  readonly sender: WebContents;
}

/** One function per request channel, typed from the contract. */
export type IpcHandlers = {
  [C in RequestChannel]: (
    input: ParsedInput<C>,
    context: HandlerContext,
  ) => Promise<RequestOutput<C>> | RequestOutput<C>;
};

/** The contract's request channels named `<prefix>:…` (`'gallery'` → every `gallery:` channel). */
export type ChannelsOf<P extends string> = Extract<RequestChannel, `${P}:${string}`>;

/** The handlers of one channel prefix: each handler file serves exactly one prefix. */
export type HandlersOf<P extends string> = Pick<IpcHandlers, ChannelsOf<P>>;

/** Decides whether a request comes from our window's main frame showing our app. */
export type SenderCheck = (event: Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>) => boolean;

/** Trusts only the main frame of `getContents()` while it shows a page of `appOrigin`. */
export function mainFrameSenderCheck(
  getContents: () => WebContents | null,
  appOrigin: string,
): SenderCheck {
  return (event) => {
    const contents = getContents();
    const frame = event.senderFrame;
    if (!contents || contents.isDestroyed() || event.sender !== contents || !frame) return false;
    if (frame !== contents.mainFrame) return false;
    try {
      // WHATWG URL gives custom schemes an opaque origin ('null'), so compare scheme and host.
      const url = new URL(frame.url);
      return `${url.protocol}//${url.host}` === appOrigin;
    } catch {
      return false;
    }
  };
}

/** Where requests go: the handlers, who may ask, and where refusals and failures are logged. */
export interface RequestBridge {
  readonly handlers: IpcHandlers;
  readonly isTrusted: SenderCheck;
  readonly logger: Logger;
  /** What the page's requests in flight hold (held-requests.ts); unbounded when absent. */
  readonly held?: HeldRequests;
}

/** One request as it arrives: its channel, who sent it, and its input before parsing. */
export interface IncomingRequest<C extends RequestChannel> extends RequestBridge {
  readonly channel: C;
  readonly event: Pick<IpcMainInvokeEvent, 'sender' | 'senderFrame'>;
  readonly raw: unknown;
}

/** Checks the sender, parses the input, runs the handler and wraps what it gives in a Result. */
export async function runRequest<C extends RequestChannel>(
  request: IncomingRequest<C>,
): Promise<Result<RequestOutput<C>>> {
  const { channel, event, raw, handlers, isTrusted, logger } = request;
  if (!isTrusted(event)) {
    logger.warn('ipc request refused: untrusted sender', { channel });
    return {
      ok: false,
      error: { code: 'forbidden', message: englishText(UNTRUSTED), sentence: UNTRUSTED },
    };
  }
  const schema = requests[channel];
  const parsed = readInput(() => schema.input.safeParse(raw, INPUT_PARSE));
  if (!parsed.success) {
    const issue = parsed.error?.issues[0];
    // A refused key must not come back in the detail or the log, even in part.
    const detail = SECRET_INPUT.has(channel)
      ? undefined
      : issue
        ? // zod names unknown keys in its message: bounded and cleaned, a hostile key name
          // (a megabyte long, or full of control characters) is not echoed back or logged.
          cleanText(`${issue.path.join('.') || '(input)'}: ${issue.message}`, MAX_DETAIL)
        : 'invalid input';
    logger.warn('ipc request refused: bad input', { channel, detail });
    return {
      ok: false,
      error: {
        code: 'bad_input',
        message: englishText(BAD_REQUEST),
        sentence: BAD_REQUEST,
        ...(detail ? { detail } : {}),
      },
    };
  }
  const release = request.held?.take(parsed.data);
  if (release === null) {
    logger.warn('ipc request refused: too many at once', { channel });
    return {
      ok: false,
      error: { code: 'failed', message: englishText(TOO_MANY), sentence: TOO_MANY },
    };
  }
  try {
    const handler = handlers[channel] as (input: unknown, context: HandlerContext) => unknown;
    const value = schema.output.parse(
      await handler(parsed.data, { sender: event.sender }),
    ) as RequestOutput<C>;
    return { ok: true, value };
  } catch (error) {
    const ipcError = toIpcError(error);
    logger.error('ipc request failed', {
      channel,
      message: ipcError.message,
      detail: ipcError.detail,
    });
    return { ok: false, error: ipcError };
  } finally {
    release?.();
  }
}

/** Registers every channel of the contract; returns a function that removes them. */
export function registerIpcHandlers(
  ipcMain: Pick<IpcMain, 'handle' | 'removeHandler'>,
  handlers: IpcHandlers,
  isTrusted: SenderCheck,
  logger: Logger,
): () => void {
  // One page, one bound on what its requests in flight hold.
  const held = new HeldRequests();
  for (const channel of REQUEST_CHANNEL_NAMES) {
    ipcMain.handle(channel, (event, raw: unknown) =>
      runRequest({ channel, event, raw, handlers, isTrusted, logger, held }),
    );
  }
  return () => {
    for (const channel of REQUEST_CHANNEL_NAMES) ipcMain.removeHandler(channel);
  };
}

export type Emit = <C extends EventChannel>(channel: C, payload: EventPayload<C>) => void;

/**
 * Payloads their sender made of what the contract parsed, each with the one channel whose
 * schema parsed it: see {@link parsedByContract}.
 */
const contractParsed = new WeakMap<object, EventChannel>();

/**
 * Marks `payload` as made wholly of what `channel`'s schema parsed: `tasks:updated`'s batches,
 * whose sender (task-updates.ts) parses each change alone, to leave out only one that does not
 * fit, and puts the parsed changes, within the contract's count, in the batch. The emitter sends
 * such a payload as it is on that channel instead of parsing every change a second time; on any
 * other channel (another contract) it is parsed like every payload not marked.
 */
export function parsedByContract<C extends EventChannel>(
  channel: C,
  payload: EventPayload<C>,
): EventPayload<C> {
  contractParsed.set(payload, channel);
  return payload;
}

/** Sends contract events to the window, parsed first (so nothing outside the schema leaves). */
export function createEmitter(getContents: () => WebContents | null, logger: Logger): Emit {
  return (channel, payload) => {
    const contents = getContents();
    if (!contents || contents.isDestroyed()) return;
    if (contractParsed.get(payload) === channel) {
      contents.send(channel, payload);
      return;
    }
    const parsed = events[channel].safeParse(payload);
    if (!parsed.success) {
      logger.error('ipc event dropped: does not match the contract', { channel });
      return;
    }
    contents.send(channel, parsed.data);
  };
}
