/**
 * `window.pictor` over the app's real wiring, for the renderer's tests of plain flows: the real
 * AppRuntime (history, gallery, settings, key vaults, costs, the embedded demo service on
 * loopback) on a temporary folder, its handlers built by the app's own `wireApp`
 * (electron/ipc/wire-app.ts) with the e2e harness's OS stand-ins, as the chromium host does
 * (tests/e2e/harness/node-main.ts). No Electron: an in-process stand-in for ipcMain and
 * webContents does what the preload and the bridge do. A request goes through `runRequest`
 * (input schema, output whitelist, Result) and an event through its contract schema, and each
 * crosses as a structured clone, as Electron's IPC copies it: the page never holds main's objects.
 * Events arrive after what main is doing (a microtask later), in the order main sent them.
 *
 * Injected faults (a channel that fails, is delayed, held back or answered in main's place, an
 * event main would not send)
 * go through the interceptor made from the contract over this wiring
 * (tests/support/intercepted-api.ts); the hand-written fake (tests/fakes/fake-pictor-api.ts) is
 * left for the tests not yet moved onto it.
 */
import { vi } from 'vitest';
import type { AppRuntime, AppRuntimeOptions } from '../../electron/app/app-runtime';
import type { Emit } from '../../electron/ipc/ipc-main-bridge';
import type { UpdatesControl } from '../../electron/ipc/update-handlers';
import type { CapPrompts, OverCapPrompts } from '../../electron/ports/user-prompts';
import type { LibraryDialogs } from '../../electron/ports/library-dialogs';
import type { AppWiring } from '../../electron/ipc/wire-app';
import { DEMO_ENDPOINT } from '../../shared/domain/submit-target';
import type { TaskRecord } from '../../shared/domain/task-record';
import { GALLERY_BASE, type PictorApi } from '../../shared/ipc/api';
import { EVENT_CHANNEL_NAMES, REQUEST_CHANNEL_NAMES } from '../../shared/ipc/channels';
import {
  events,
  type AppNotice,
  type EventChannel,
  type RequestChannel,
  type RequestInput,
  type Result,
} from '../../shared/ipc/contract';
import type { OsStandIns } from '../e2e/harness/os-stand-ins';
import { okValue, type IpcCall } from './ipc';
import { wiredIpc, type Cleanups } from './wired-ipc';
import { UNTIL } from './waits';
import { memoryTempParent } from './memory-temp';

/** What a test may ask of the wiring before the page starts. */
export interface WiredApiOptions {
  /** Runtime options over tests/support/app-runtime.ts's (the demo's pace, the clock…). */
  readonly runtime?: Partial<AppRuntimeOptions>;
  /**
   * What the OS stand-ins read (PICTOR_E2E_CHOOSE_FOLDER: the folder the dialog answers;
   * PICTOR_E2E_KEY_ORIGIN: main's key-origin question's answer, carry/forget, else cancel;
   * PICTOR_E2E_LOCAL_SERVERS: `allow` agrees to main's Local servers question), and
   * main's own save and open dialogs ({@link libraryDialogs}).
   */
  readonly env?: Record<string, string | undefined>;
  /** `app:getInfo`'s host part: the app's version and the OS (default linux). */
  readonly version?: string;
  readonly platform?: NodeJS.Platform;
  /** `app:getInfo`'s network state at start (default online). */
  readonly online?: boolean;
  /** `app:getInfo`'s one-time notices the host kept before the page asked (default none). */
  readonly notices?: AppNotice[];
  /**
   * The host's update service (electron/host/app-updates.ts builds it in the app); default none,
   * as in a development copy (`noUpdates`).
   */
  readonly updates?: UpdatesControl;
  /** Main's own dialog about raising or removing a hard cap; without it main refuses those. */
  readonly capPrompts?: CapPrompts;
  /** Main's own dialog before a template run passes a hard cap; without it main refuses those. */
  readonly overCapPrompts?: OverCapPrompts;
  /** A history file main opens as its own (a run's cached large history: run-cache.ts). */
  readonly history?: string;
}

/** The page's `window.pictor` and the real main process behind it. */
export interface WiredApi {
  readonly api: PictorApi;
  readonly runtime: AppRuntime;
  readonly wiring: AppWiring;
  /** Every OS action the app asked for (reveal, trash, copyText, chooseFolder, confirmKeyOrigin…). */
  readonly os: OsStandIns;
  /** What the OS stand-ins read; a test may change it before a click. */
  readonly env: Record<string, string | undefined>;
  /**
   * The temporary folder: `gallery/` (the images). The history's folder is `runtime.dataDir`, in
   * memory where the machine has room (memory-temp.ts).
   */
  readonly dir: string;
  /** Every request the page made, in order, as it crossed. */
  readonly calls: Array<{ readonly channel: RequestChannel; readonly input: unknown }>;
  /** The inputs of every request the page made on `channel`. */
  callsTo<C extends RequestChannel>(channel: C): Array<RequestInput<C>>;
  /**
   * What only the Electron host sends (the menu's commands, the network's state), and what the
   * wiring sends: to the page, as the host's emitter would.
   */
  send: Emit;
  /**
   * Tasks made as the user makes them, on the built-in demo service: one `tasks:submit` per
   * prompt, newest last, waited for until each is completed with its images saved (real PNGs in
   * the gallery). The requests are main's own, not the page's (not in {@link calls}).
   */
  generate(prompts: readonly string[]): Promise<TaskRecord[]>;
  /** Ends the page's side, the wiring and the runtime, and removes the folder. */
  close(): Promise<void>;
}

const REQUESTS = new Set<string>(REQUEST_CHANNEL_NAMES);
const EVENTS = new Set<string>(EVENT_CHANNEL_NAMES);
const UNKNOWN_REQUEST: Result<never> = {
  ok: false,
  error: { code: 'forbidden', message: 'Unknown request.' },
};

/** What a request made after the app quit gets (the window is gone in the app). */
const QUIT: Result<never> = { ok: false, error: { code: 'failed', message: 'The app has quit.' } };

type Listener = (payload: unknown) => void;

/** The page's end of the bridge: listeners by channel, and what the preload's `on` does. */
class PageEnd {
  open = true;
  private readonly listeners = new Map<string, Set<Listener>>();

  on(channel: string, listener: Listener): () => void {
    if (!EVENTS.has(channel)) throw new Error(`Unknown event: ${channel}`);
    const set = this.listeners.get(channel) ?? new Set<Listener>();
    this.listeners.set(channel, set);
    const forward: Listener = (payload) => listener(payload);
    set.add(forward);
    return () => void set.delete(forward);
  }

  /** createEmitter's part (the contract's schema first), then the copy that crosses. */
  readonly emit: Emit = (channel, payload) => {
    if (!this.open) return;
    const parsed = events[channel as EventChannel].safeParse(payload);
    if (!parsed.success) throw new Error(`Event ${channel} does not match the contract`);
    const sent = structuredClone(parsed.data as unknown);
    queueMicrotask(() => {
      if (!this.open) return;
      // Each listener gets its own copy, as each ipcRenderer listener does.
      for (const listener of [...(this.listeners.get(channel) ?? [])])
        listener(structuredClone(sent));
    });
  };
}

/** Submits each prompt to the demo and waits until every task is completed and saved. */
async function generate(
  runtime: AppRuntime,
  call: IpcCall,
  prompts: readonly string[],
): Promise<TaskRecord[]> {
  const ids: string[] = [];
  for (const prompt of prompts) {
    const items = okValue(
      await call('tasks:submit', {
        request: { prompt },
        target: { provider: 'pictor', endpoint: DEMO_ENDPOINT },
        count: 1,
      }),
    );
    ids.push(...items.map((item) => item.record.localId));
  }
  return vi.waitFor(() => {
    const records = ids.map((id) => runtime.core.history.get(id));
    const done = records.filter(
      (record): record is TaskRecord =>
        record?.status === 'completed' && record.images.every((image) => image.state === 'saved'),
    );
    if (done.length < ids.length) throw new Error('still generating');
    return done;
  }, UNTIL);
}

/**
 * Vitest's jsdom environment replaces the global `Uint8Array` and `ArrayBuffer` with jsdom's,
 * while Node's own APIs (Buffer, fs, sqlite, sharp) keep making Node's: main's checks such as
 * `bytes instanceof Uint8Array` then fail on every image. Electron's main process and its page
 * each have one set; main's is put back while main runs here (Buffer is Node's own in the
 * environment), and the environment's after the test. Returns the undo.
 */
function nodeByteTypes(): () => void {
  const scope = globalThis as Record<'Uint8Array' | 'ArrayBuffer', unknown>;
  const before = { Uint8Array: scope.Uint8Array, ArrayBuffer: scope.ArrayBuffer };
  const node = Buffer.alloc(0);
  scope.Uint8Array = Object.getPrototypeOf(Buffer.prototype).constructor as unknown;
  scope.ArrayBuffer = node.buffer.constructor;
  return () => Object.assign(scope, before);
}

/** Starts the runtime on a temporary folder, wires it and gives the page's API over it. */
export async function startWiredApi(options: WiredApiOptions = {}): Promise<WiredApi> {
  const restoreByteTypes = nodeByteTypes();
  const env: Record<string, string | undefined> = { ...options.env };
  const page = new PageEnd();
  const cleanups: Cleanups = [];
  // The stand-ins first: main's own dialogs (the key-origin question, answered from
  // PICTOR_E2E_KEY_ORIGIN) are the runtime's, as the e2e harness passes them (node-main.ts).
  // The history in memory where the machine has room: the page's tests wait on no disk syncs
  // (memory-temp.ts). The gallery stays in the temporary folder, where the app may move it.
  const { dir, runtime, os, wiring, request } = await wiredIpc(cleanups, {
    prefix: 'pictor-wired-',
    dataParent: memoryTempParent(),
    ...(options.history ? { history: options.history } : {}),
    env,
    runtime: (os) => ({ prompts: os.prompts, ...options.runtime }),
    wiring: () => ({
      info: () => ({
        version: options.version ?? '0.1.0',
        platform: options.platform ?? 'linux',
        online: options.online ?? true,
        ...(options.notices ? { notices: options.notices } : {}),
      }),
      emit: page.emit,
      ...(options.updates ? { updates: options.updates } : {}),
      ...(options.capPrompts ? { capPrompts: options.capPrompts } : {}),
      ...(options.overCapPrompts ? { overCapPrompts: options.overCapPrompts } : {}),
      library: { dialogs: libraryDialogs(() => env), version: options.version ?? '0.1.0' },
    }),
  });
  const calls: Array<{ channel: RequestChannel; input: unknown }> = [];
  // The answers main still owes the page: close() waits for them (main's quitting settles them)
  // and for what the page does with them, so a handler still at work when main quit (its history
  // stopped under it) shows its failure in this test's store, which the test's end then empties,
  // not in the next test's (the store is the thread's in the projects whose files share one).
  const inFlight = new Set<Promise<unknown>>();
  // runRequest from the page's main frame, as ipcMain.handle runs it (tests/support/ipc.ts).
  const api: PictorApi = {
    galleryBase: GALLERY_BASE,
    invoke(channel, ...args) {
      if (!REQUESTS.has(channel)) return Promise.resolve(UNKNOWN_REQUEST);
      if (!page.open) return Promise.resolve(QUIT);
      const raw = structuredClone(args[0] as unknown);
      calls.push({ channel, input: structuredClone(raw) });
      const answer = request(channel, raw).then((answer) => structuredClone(answer));
      inFlight.add(answer);
      void answer.finally(() => inFlight.delete(answer));
      return answer;
    },
    on: (channel, listener) => page.on(channel, listener as Listener),
  };
  let closing: Promise<void> | null = null;
  return {
    api,
    runtime,
    wiring,
    os,
    env,
    dir,
    calls,
    callsTo: (channel) =>
      calls.filter((made) => made.channel === channel).map((made) => made.input as never),
    send: page.emit,
    generate: (prompts) => generate(runtime, request, prompts),
    close() {
      closing ??= (async () => {
        page.open = false;
        // The wiring, then the runtime, then the folder (wired-ipc.ts's order).
        for (const cleanup of cleanups.splice(0).reverse()) await cleanup();
        await Promise.allSettled([...inFlight]);
        await new Promise((settled) => setImmediate(settled));
        restoreByteTypes();
      })();
      return closing;
    },
  };
}

/**
 * Main's own save and open dialogs (the library archive's export and import, the cost ledger's
 * CSV, the template files), answered from what the test set in `main.env` when asked:
 * PICTOR_E2E_SAVE_ARCHIVE, PICTOR_E2E_OPEN_ARCHIVE (an archive file or a folder, as the import
 * asked), PICTOR_E2E_SAVE_CSV, PICTOR_E2E_SAVE_TEMPLATES, PICTOR_E2E_OPEN_TEMPLATES,
 * PICTOR_E2E_OPEN_WORKFLOW and PICTOR_E2E_OPEN_OPTIONS; unset,
 * the user cancelled the dialog.
 */
export function libraryDialogs(env: () => Record<string, string | undefined>): LibraryDialogs {
  const answer = (name: string): Promise<string | null> => Promise.resolve(env()[name] ?? null);
  return {
    chooseExportFile: () => answer('PICTOR_E2E_SAVE_ARCHIVE'),
    chooseImportSource: () => answer('PICTOR_E2E_OPEN_ARCHIVE'),
    chooseLedgerFile: () => answer('PICTOR_E2E_SAVE_CSV'),
    chooseTemplateExportFile: () => answer('PICTOR_E2E_SAVE_TEMPLATES'),
    chooseTemplateImportFile: () => answer('PICTOR_E2E_OPEN_TEMPLATES'),
    chooseWorkflowFile: () => answer('PICTOR_E2E_OPEN_WORKFLOW'),
    chooseModelOptionsFile: () => answer('PICTOR_E2E_OPEN_OPTIONS'),
  };
}
