/**
 * The app's main process in-process, as tests/e2e/harness/node-main.ts builds it (AppRuntime,
 * JSON-file stores, the test cipher, Node's fetch, a rotating log in <userData>/logs, the app's
 * own wiring), with the
 * IPC handlers registered through the real bridge on a recording ipcMain and window: every
 * response and event the renderer would receive is kept, serialized, for the key scan. Every
 * request the app makes goes through a recording fetch too.
 */
import type { IpcMain, IpcMainInvokeEvent, WebContents } from 'electron';
import { join } from 'node:path';
import { createNodeFetch } from '../../../electron/adapters/node-fetch';
import { systemClock } from '../../../electron/adapters/system-clock';
import { AppRuntime } from '../../../electron/app/app-runtime';
import { RotatingFileLogger } from '../../../electron/core/logging/rotating-file-logger';
import type { DemoServiceOptions } from '../../../electron/demo-service/types';
import {
  createEmitter,
  mainFrameSenderCheck,
  registerIpcHandlers,
  type Emit,
} from '../../../electron/ipc/ipc-main-bridge';
import type { AppWiring } from '../../../electron/ipc/wire-app';
import type { FetchLike } from '../../../electron/ports/http';
import type { RequestChannel, RequestInput, Result } from '../../../shared/ipc/contract';
import { JsonFileKv } from '../../../electron/adapters/json-file-kv';
import { wireHarness } from '../../e2e/harness/node-main';
import { createOsStandIns, type OsCall } from '../../e2e/harness/os-stand-ins';
import { TestSecretCipher } from '../../e2e/harness/test-cipher';
import { testImageEngine } from '../../support/image-engine';

const APP_ORIGIN = 'pictor-app://app';

/** One request the app's fetch was asked to make. */
export interface FetchCall {
  readonly url: string;
  readonly authorization: string | null;
}

/** Everything the renderer would have received, serialized as it would cross the bridge. */
export interface IpcRecord {
  readonly kind: 'response' | 'event';
  readonly channel: string;
  readonly text: string;
}

export interface RecordedApp {
  readonly runtime: AppRuntime;
  /** The OS calls main made (os-stand-ins.ts): links opened, text copied, files revealed… */
  readonly osCalls: readonly OsCall[];
  invoke<C extends RequestChannel>(channel: C, input?: RequestInput<C>): Promise<Result<unknown>>;
  close(): Promise<void>;
}

/** Loopback only: what a test may reach (a service's real host is never contacted from a test). */
function isLoopback(url: string): boolean {
  const { hostname } = new URL(url);
  return hostname === '127.0.0.1' || hostname === 'localhost' || hostname === '[::1]';
}

/**
 * The network a test's app has: Node's fetch to loopback; any other host (a provider's built-in
 * address the page chose) fails as an unreachable network does, never sent off this machine.
 */
function loopbackOnly(send: FetchLike = createNodeFetch({})): FetchLike {
  return (url, init) =>
    isLoopback(url)
      ? send(url, init)
      : Promise.reject(new TypeError('fetch failed: a test reaches loopback hosts only'));
}

/** A fetch that records the URL and Authorization of every request, then `send`s it. */
export function recordingFetch(calls: FetchCall[], send: FetchLike = loopbackOnly()): FetchLike {
  return (url, init) => {
    const headers = new Headers(init?.headers);
    calls.push({ url, authorization: headers.get('authorization') });
    return send(url, init);
  };
}

function recordingWindow(ipc: IpcRecord[]) {
  const mainFrame = { url: `${APP_ORIGIN}/index.html` };
  const contents = {
    mainFrame,
    isDestroyed: () => false,
    send: (channel: string, payload: unknown) =>
      ipc.push({ kind: 'event', channel, text: JSON.stringify(payload) ?? 'undefined' }),
  };
  return contents as unknown as WebContents;
}

function recordingIpcMain() {
  const listeners = new Map<string, (event: IpcMainInvokeEvent, raw: unknown) => unknown>();
  const ipcMain = {
    handle: (channel: string, listener: (event: IpcMainInvokeEvent, raw: unknown) => unknown) =>
      void listeners.set(channel, listener),
    removeHandler: (channel: string) => void listeners.delete(channel),
  } as unknown as Pick<IpcMain, 'handle' | 'removeHandler'>;
  return { ipcMain, listeners };
}

export interface RecordedAppOptions {
  readonly userDataDir: string;
  readonly galleryDir: string;
  readonly fetchCalls: FetchCall[];
  readonly ipc: IpcRecord[];
  readonly demo?: DemoServiceOptions;
}

/** The app's wiring (node-main.ts's wireHarness), over the recording window and ipcMain. */
function wire(
  runtime: AppRuntime,
  options: RecordedAppOptions,
  emit: Emit,
): { wiring: AppWiring; osCalls: readonly OsCall[] } {
  const os = createOsStandIns({
    userDataDir: options.userDataDir,
    galleryDir: () => runtime.galleryDir(),
    env: () => ({}),
  });
  return { wiring: wireHarness(runtime, { os, emit, version: '0.0.0-test' }), osCalls: os.calls };
}

/** Starts the recorded app on `userDataDir` (a second start on the same folder is a restart). */
export async function startRecordedApp(options: RecordedAppOptions): Promise<RecordedApp> {
  const logger = new RotatingFileLogger({
    dir: join(options.userDataDir, 'logs'),
    minimumLevel: 'debug',
    fallback: () => undefined,
  });
  const runtime = await AppRuntime.start({
    imageEngine: testImageEngine,
    dataDir: options.userDataDir,
    defaultGalleryDir: options.galleryDir,
    cipher: new TestSecretCipher(),
    settingsStore: new JsonFileKv(options.userDataDir, 'settings'),
    earlierVaultStore: new JsonFileKv(options.userDataDir, 'key-vault'),
    serviceVaultStore: (provider) => new JsonFileKv(options.userDataDir, `key-vault-${provider}`),
    fetch: recordingFetch(options.fetchCalls),
    clock: systemClock,
    logger,
    demo: { durationMs: 200, ...options.demo },
    pollIntervalMs: 100,
  });
  await runtime.redactKeyIn(logger);
  const contents = recordingWindow(options.ipc);
  const emit = createEmitter(() => contents, logger);
  const { wiring, osCalls } = wire(runtime, options, emit);
  const { ipcMain, listeners } = recordingIpcMain();
  const unregister = registerIpcHandlers(
    ipcMain,
    wiring.handlers,
    mainFrameSenderCheck(() => contents, APP_ORIGIN),
    logger,
  );
  const event = { sender: contents, senderFrame: contents.mainFrame } as IpcMainInvokeEvent;
  return {
    runtime,
    osCalls,
    async invoke(channel, input) {
      const listener = listeners.get(channel);
      if (!listener) throw new Error(`no handler for ${channel}`);
      const result = (await listener(event, input)) as Result<unknown>;
      options.ipc.push({ kind: 'response', channel, text: JSON.stringify(result) ?? 'undefined' });
      return result;
    },
    async close() {
      unregister();
      await runtime.close();
      wiring.dispose();
      await logger.close();
    },
  };
}
