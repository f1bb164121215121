/**
 * The preload's job in the chromium host: `window.pictor` (galleryBase, invoke, on) built from
 * shared/ipc/channels in an init script, requests forwarded to the real handlers through
 * `runRequest` (sender check, input schema, output whitelist, Result), events parsed with the
 * contract's schemas before they reach the page. Every Result and event payload the page
 * receives is kept as the JSON text that crossed, for the security journey.
 */
import type { BrowserContext, Frame, Page } from '@playwright/test';
import { EVENT_CHANNEL_NAMES, REQUEST_CHANNEL_NAMES } from '../../../shared/ipc/channels';
import { events, type RequestChannel, type Result } from '../../../shared/ipc/contract';
import {
  runRequest,
  type Emit,
  type IpcHandlers,
  type SenderCheck,
} from '../../../electron/ipc/ipc-main-bridge';
import type { Logger } from '../../../electron/ports/logger';

/** The page-side names of the binding and the event entry point (harness only). */
const INVOKE_BINDING = '__pictorE2eInvoke';
const DISPATCH_FUNCTION = '__pictorE2eDispatch';

const REQUESTS = new Set<string>(REQUEST_CHANNEL_NAMES);

interface PreloadArgs {
  readonly requestChannels: readonly string[];
  readonly eventChannels: readonly string[];
  readonly galleryBase: string;
  readonly invokeName: string;
  readonly dispatchName: string;
}

/**
 * Runs in the page before its scripts, like the preload. Only the top frame gets the API: the
 * app's preload runs in the main frame only. Everything it needs comes in `args` (it is
 * serialised into the page, so it may not close over anything).
 */
function installPreload(args: PreloadArgs): void {
  if (window !== window.top) return;
  type Listener = (payload: unknown) => void;
  const scope = window as unknown as Record<string, unknown>;
  const requests = new Set(args.requestChannels);
  const eventNames = new Set(args.eventChannels);
  const listeners = new Map<string, Set<Listener>>();
  const api = Object.freeze({
    galleryBase: args.galleryBase,
    invoke(channel: string, input?: unknown): Promise<unknown> {
      if (!requests.has(channel)) {
        return Promise.resolve({
          ok: false,
          error: { code: 'forbidden', message: 'Unknown request.' },
        });
      }
      const binding = scope[args.invokeName] as (c: string, i: unknown) => Promise<string>;
      return binding(channel, input).then((text) => JSON.parse(text) as unknown);
    },
    on(channel: string, listener: Listener): () => void {
      if (!eventNames.has(channel)) throw new Error(`Unknown event: ${String(channel)}`);
      const set = listeners.get(channel) ?? new Set<Listener>();
      listeners.set(channel, set);
      const forward: Listener = (payload) => listener(payload);
      set.add(forward);
      return () => void set.delete(forward);
    },
  });
  Object.defineProperty(window, 'pictor', { value: api, enumerable: true });
  Object.defineProperty(window, args.dispatchName, {
    value: (channel: string, text: string) => {
      for (const listener of [...(listeners.get(channel) ?? [])]) {
        // Each listener gets its own copy, as each ipcRenderer listener does.
        listener(JSON.parse(text) as unknown);
      }
    },
  });
}

/** What the harness needs to know about the app's window. */
export interface BridgeTarget {
  /** The app's page now (null between a close and a restart). */
  readonly page: () => Page | null;
  /** `http://127.0.0.1:<port>`: the only origin whose main frame may call. */
  readonly origin: string;
  readonly handlers: () => IpcHandlers;
  readonly logger: () => Logger;
}

export interface PageBridge {
  /** Sends a contract event to the page (the harness's createEmitter). */
  readonly emit: Emit;
  /** Every Result and event payload sent to the page, as JSON text, in order. */
  readonly payloads: string[];
  /** Waits until the events sent so far were handed to the page. */
  flush(): Promise<void>;
}

/** Trusts only the main frame of the app's page while it shows the harness origin. */
export function harnessSenderCheck(target: Pick<BridgeTarget, 'page' | 'origin'>): SenderCheck {
  return (event) => {
    const { sender, senderFrame } = event as unknown as { sender: Page; senderFrame: Frame | null };
    const page = target.page();
    if (!page || page.isClosed() || sender !== page || senderFrame !== page.mainFrame()) {
      return false;
    }
    try {
      return new URL(senderFrame.url()).origin === target.origin;
    } catch {
      return false;
    }
  };
}

const UNKNOWN_CHANNEL: Result<never> = {
  ok: false,
  error: { code: 'forbidden', message: 'Unknown request.' },
};

/** One request from the page: checked, handled and wrapped exactly as ipcMain.handle does. */
function answerRequest(
  target: BridgeTarget,
  isTrusted: SenderCheck,
  source: { page: Page; frame: Frame },
  channel: unknown,
  input: unknown,
): Promise<Result<unknown>> {
  // The page can call the binding by name, so the channel is checked here as well.
  if (typeof channel !== 'string' || !REQUESTS.has(channel)) {
    return Promise.resolve(UNKNOWN_CHANNEL);
  }
  return runRequest({
    channel: channel as RequestChannel,
    event: { sender: source.page, senderFrame: source.frame } as never,
    raw: input,
    handlers: target.handlers(),
    isTrusted,
    logger: target.logger(),
  });
}

/** createEmitter for the page: parsed with the contract, then handed over in order. */
function pageEmitter(target: BridgeTarget, payloads: string[]) {
  let delivered: Promise<void> = Promise.resolve();
  const emit: Emit = (channel, payload) => {
    const page = target.page();
    if (!page || page.isClosed()) return;
    const parsed = events[channel].safeParse(payload);
    if (!parsed.success) {
      target.logger().error('ipc event dropped: does not match the contract', { channel });
      return;
    }
    const text = JSON.stringify(parsed.data);
    payloads.push(text);
    // One after the other, as webContents.send delivers them.
    delivered = delivered
      .then(() =>
        page.evaluate(
          ([name, eventChannel, json]) => {
            const dispatch = (window as unknown as Record<string, unknown>)[name];
            if (typeof dispatch === 'function') dispatch(eventChannel, json);
          },
          [DISPATCH_FUNCTION, channel, text] as const,
        ),
      )
      .catch(() => undefined);
  };
  return { emit, flush: () => delivered };
}

/** Installs the preload stand-in and the request binding on every page of `context`. */
export async function installBridge(
  context: BrowserContext,
  target: BridgeTarget,
  galleryBase: string,
): Promise<PageBridge> {
  const payloads: string[] = [];
  const isTrusted = harnessSenderCheck(target);
  await context.exposeBinding(INVOKE_BINDING, async (source, channel: unknown, input: unknown) => {
    const text = JSON.stringify(await answerRequest(target, isTrusted, source, channel, input));
    payloads.push(text);
    return text;
  });
  const preload: PreloadArgs = {
    requestChannels: REQUEST_CHANNEL_NAMES,
    eventChannels: EVENT_CHANNEL_NAMES,
    galleryBase,
    invokeName: INVOKE_BINDING,
    dispatchName: DISPATCH_FUNCTION,
  };
  await context.addInitScript(installPreload, preload);
  return { ...pageEmitter(target, payloads), payloads };
}
