/**
 * The Electron pieces the image renderer's adapter uses, on top of electron-window.ts's fakes:
 * partition sessions (with their protocol handlers and request filter), a window that can be
 * destroyed and posted to, and MessageChannelMain. Use from
 * `vi.mock('electron', async () => (await import('…/fakes/electron-image-window')).fakeImageElectron)`.
 */
import { EventEmitter } from 'node:events';
import {
  FakeBrowserWindow,
  FakeSession,
  FakeWebContents,
  fakeElectron,
  resetElectronFakes,
} from './electron-window';

type ProtocolHandler = (request: Request) => Promise<Response> | Response;
type RequestFilter = (
  details: { url: string },
  callback: (response: { cancel: boolean }) => void,
) => void;

export class FakePartitionSession extends FakeSession {
  readonly events = new EventEmitter();
  readonly handlers = new Map<string, ProtocolHandler>();
  requestFilter: RequestFilter | null = null;
  readonly protocol = {
    handle: (scheme: string, handler: ProtocolHandler) => {
      if (this.handlers.has(scheme)) throw new Error(`${scheme} is already handled`);
      this.handlers.set(scheme, handler);
    },
  };
  readonly webRequest = {
    onBeforeRequest: (filter: RequestFilter) => {
      this.requestFilter = filter;
    },
  };

  constructor(
    readonly partition: string,
    readonly options: unknown,
  ) {
    super();
  }

  override on(event: string, listener: (...args: unknown[]) => void): this {
    this.events.on(event, listener);
    return this;
  }

  /** Whether the session's request filter lets `url` through. */
  allows(url: string): boolean {
    let cancel = true;
    this.requestFilter?.({ url }, (response) => (cancel = response.cancel));
    return !cancel;
  }
}

export class FakeMessagePortMain extends EventEmitter {
  readonly sent: unknown[] = [];
  started = false;
  closed = false;
  postMessage(message: unknown): void {
    if (this.closed) throw new Error('posted on a closed port');
    this.sent.push(message);
  }
  start(): void {
    this.started = true;
  }
  close(): void {
    this.closed = true;
  }
  /** A message from the page's end of the channel. */
  receive(data: unknown): void {
    this.emit('message', { data, ports: [] });
  }
}

export class FakeMessageChannelMain {
  static instances: FakeMessageChannelMain[] = [];
  readonly port1 = new FakeMessagePortMain();
  readonly port2 = new FakeMessagePortMain();
  constructor() {
    FakeMessageChannelMain.instances.push(this);
  }
}

export class FakeImageWebContents extends FakeWebContents {
  readonly postedMessages: { channel: string; message: unknown; transfer: unknown[] }[] = [];
  postMessage(channel: string, message: unknown, transfer: unknown[] = []): void {
    this.postedMessages.push({ channel, message, transfer });
  }
}

export class FakeImageWindow extends FakeBrowserWindow {
  static override instances: FakeImageWindow[] = [];
  override readonly webContents: FakeImageWebContents;

  constructor(options: Record<string, unknown>) {
    super(options);
    const preferences = options['webPreferences'] as { session?: FakeSession } | undefined;
    this.webContents = new FakeImageWebContents(preferences?.session ?? new FakeSession());
    FakeImageWindow.instances.push(this);
  }
  destroy(): void {
    if (this.destroyed) return;
    this.destroyed = true;
    this.emit('closed');
  }
}

const partitions = new Map<string, FakePartitionSession>();

export function partitionSession(name: string): FakePartitionSession | undefined {
  return partitions.get(name);
}

export const fakeImageElectron = {
  ...fakeElectron,
  BrowserWindow: FakeImageWindow,
  MessageChannelMain: FakeMessageChannelMain,
  session: {
    fromPartition(partition: string, options?: unknown): FakePartitionSession {
      let found = partitions.get(partition);
      if (!found) {
        found = new FakePartitionSession(partition, options);
        partitions.set(partition, found);
      }
      return found;
    },
  },
};

export function resetImageElectronFakes(): void {
  resetElectronFakes();
  partitions.clear();
  FakeImageWindow.instances = [];
  FakeMessageChannelMain.instances = [];
}
