/**
 * The `electron` module electron-updater requires at run time, faked for plain Node: `app` (its
 * version, paths and quit) and `autoUpdater` (Squirrel's events). Its network calls go through
 * `net.request`, given here by Node's own http client (the same request/response events), so
 * electron-updater's ElectronHttpExecutor, providers, downloader and sha512 checks all run as
 * shipped. Installed into Node's require cache for the running test (tests/support/
 * undone-after-test.ts), which is where electron-updater's lazy `require("electron")` looks.
 */
import { EventEmitter } from 'node:events';
import { get, request, type RequestOptions } from 'node:http';
import type { Socket } from 'node:net';
import { createRequire } from 'node:module';
import { requireCacheForTest } from '../../support/undone-after-test';

export class FakeApp extends EventEmitter {
  quits = 0;
  relaunches = 0;
  isPackaged = true;
  constructor(
    private readonly version: string,
    private readonly userData: string,
  ) {
    super();
  }
  getVersion(): string {
    return this.version;
  }
  getName(): string {
    return 'Pictor';
  }
  getAppPath(): string {
    return this.userData;
  }
  getPath(): string {
    return this.userData;
  }
  whenReady(): Promise<void> {
    return Promise.resolve();
  }
  quit(): void {
    this.quits++;
  }
  relaunch(): void {
    this.relaunches++;
  }
}

/**
 * Squirrel.Mac as Electron's `autoUpdater` drives it: given a feed URL and headers, it asks the
 * feed for `{ "url": … }`, downloads that zip, and says `update-downloaded`. Real HTTP, so the
 * loopback proxy MacUpdater serves the verified zip from is exercised as shipped.
 */
export class FakeSquirrel extends EventEmitter {
  feed: { url: string; headers?: Record<string, string> } | null = null;
  /** The bytes Squirrel received, once it has. */
  received: Buffer | null = null;
  installs = 0;

  setFeedURL(options: { url: string; headers?: Record<string, string> }): void {
    this.feed = options;
  }

  checkForUpdates(): void {
    void this.fetchUpdate().then(
      (bytes) => {
        this.received = bytes;
        this.emit('update-downloaded');
      },
      (error: unknown) => this.emit('error', error),
    );
  }

  quitAndInstall(): void {
    this.installs++;
  }

  private async fetchUpdate(): Promise<Buffer> {
    if (!this.feed) throw new Error('Update check failed: no feed URL');
    const answer = JSON.parse(
      (await fetchBytes(this.feed.url, this.feed.headers)).toString('utf8'),
    ) as { url: string };
    return fetchBytes(answer.url);
  }
}

function fetchBytes(url: string, headers: Record<string, string> = {}): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    get(url, { headers }, (response) => {
      const chunks: Buffer[] = [];
      response.on('data', (chunk: Buffer) => chunks.push(chunk));
      response.on('end', () =>
        response.statusCode === 200
          ? resolve(Buffer.concat(chunks))
          : reject(new Error(`HTTP ${String(response.statusCode)}`)),
      );
    }).on('error', reject);
  });
}

export interface FakeElectron {
  readonly app: FakeApp;
  readonly autoUpdater: FakeSquirrel;
  /**
   * Each `net.request`'s path and socket: its `bytesRead` is everything the client took from the
   * server (headers and body), which a reader that stops in time keeps near what it let through.
   */
  readonly requests: { readonly path: string; socket: Socket | null }[];
}

/**
 * Puts the fake in place of `electron` until the running test ends (then the module it replaced
 * comes back: a second fake installed in a test gives way to the first).
 */

export function installFakeElectron(app: FakeApp): FakeElectron {
  const id = createRequire(import.meta.url).resolve('electron');
  const autoUpdater = new FakeSquirrel();
  const requests: FakeElectron['requests'] = [];
  const netRequest = (options: RequestOptions): ReturnType<typeof request> => {
    const made = request(options);
    const entry = { path: options.path ?? '', socket: null as Socket | null };
    requests.push(entry);
    made.on('socket', (socket) => void (entry.socket = socket));
    return made;
  };
  const exports = {
    app,
    autoUpdater,
    session: { fromPartition: () => ({}) },
    // Electron's net.request emits `response` like Node's; `session` and `redirect` are
    // Electron's options, which Node ignores.
    net: { request: netRequest },
  };
  requireCacheForTest(id, exports);
  return { app, autoUpdater, requests };
}
