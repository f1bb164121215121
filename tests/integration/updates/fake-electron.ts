/**
 * The `electron` module electron-updater requires at run time, faked for plain Node: `app` (its
 * version, paths and quit) and `autoUpdater` (Squirrel's events). Its network calls go through
 * `net.request`, given here by Node's own http client (the same request/response events), so
 * electron-updater's ElectronHttpExecutor, providers, downloader and sha512 checks all run as
 * shipped. Installed into Node's require cache, which is where electron-updater's lazy
 * `require("electron")` looks.
 */
import { EventEmitter } from 'node:events';
import { request } from 'node:http';
import { createRequire } from 'node:module';

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

export interface FakeElectron {
  readonly app: FakeApp;
  readonly autoUpdater: EventEmitter;
  /** Removes the fake from the require cache. */
  uninstall(): void;
}

export function installFakeElectron(app: FakeApp): FakeElectron {
  const require = createRequire(import.meta.url);
  const id = require.resolve('electron');
  const autoUpdater = new EventEmitter();
  const previous = require.cache[id];
  const exports = {
    app,
    autoUpdater,
    session: { fromPartition: () => ({}) },
    // Electron's net.request emits `response` like Node's; `session` and `redirect` are
    // Electron's options, which Node ignores.
    net: { request: (options: object) => request(options) },
  };
  require.cache[id] = {
    id,
    filename: id,
    loaded: true,
    exports,
    children: [],
    paths: [],
  } as unknown as NodeJS.Module;
  return {
    app,
    autoUpdater,
    uninstall() {
      if (previous) require.cache[id] = previous;
      else Reflect.deleteProperty(require.cache, id);
    },
  };
}
