/**
 * The fetch of Electron's main process in plain Node (the "Main memory over a day" bench child
 * models main with it): the app's own adapter
 * (adapters/electron-net-fetch.ts, createElectronFetch) over a `net` whose requests node:http
 * carries, where in the app Chromium's network service does. Every request the core sends is
 * `redirect: 'manual'`, which the adapter sends through `net.request`: its ClientRequest is
 * played here as Electron's behaves where the adapter relies on it (a `redirect` event for a 3xx
 * with a Location, "Redirect was cancelled" when it is neither followed nor aborted, `abort()`
 * without an `error`). `net.fetch` is not played: the core never reaches it, and a call fails.
 *
 * Why not the CLI's fetch (adapters/node-fetch.ts, undici): main never loads undici, whose
 * llhttp parser is WebAssembly that V8 compiles and optimises inside the process (a 10 MB zone
 * glibc kept for the rest of a day of download bursts; the bench's day row says more). In the
 * app the HTTP parsing and the socket buffers are in the network service, another process; here
 * node:http parses in C++ in the measured process, so they are counted in main's figures, not
 * left out: the model errs on main's side.
 *
 * What Chromium does to the requests out when the machine goes to sleep or its network changes is
 * played by {@link MainNet.failAll}: each fails with the network service's error
 * (`net::ERR_NETWORK_IO_SUSPENDED`, `net::ERR_NETWORK_CHANGED`, …) as Electron's ClientRequest
 * reports one (its URL loader's `error`): a response under way is destroyed with it, and the
 * request emits it unless it was aborted.
 *
 * Upload progress (`getUploadProgress`) is what Chromium reports of a body whose size it knows (a
 * whole body; never a chunked one): here the whole body once node:http flushed it to the socket,
 * where Chromium's timer reports it within 100 ms of its bytes being read onto the connection.
 */
import type { IncomingMessage } from 'node:http';
import type { ClientRequestConstructorOptions } from 'electron';
import { EventEmitter } from 'node:events';
import type { ElectronNet, ElectronSessions } from '../../electron/adapters/electron-net-fetch';
import { createElectronFetch } from '../../electron/adapters/electron-net-fetch';
import type { FetchLike } from '../../electron/ports/http';

// As the core does (pinned-fetch.ts): an ES import of node:http would load Node's own undici.
const http = process.getBuiltinModule('node:http');
const https = process.getBuiltinModule('node:https');

/** Electron's ClientRequest, as far as the adapter uses it, over one node:http request. */
class NodeClientRequest extends EventEmitter {
  /** Set before the first write, as Electron asks: the body goes a piece at a time. */
  chunkedEncoding = false;
  private aborted = false;
  private failed = false;
  private outgoing: ReturnType<typeof http.request> | null = null;
  private message: IncomingMessage | null = null;
  private uploaded = 0;
  private bodySent = false;

  constructor(
    private readonly options: ClientRequestConstructorOptions,
    private readonly agents: {
      http: InstanceType<typeof http.Agent>;
      https: InstanceType<typeof https.Agent>;
    },
    /** The requests out now, this one among them until it ends. */
    private readonly out: Set<NodeClientRequest>,
    /** Chromium's error for a request started while the machine has no network, or null. */
    private readonly network: { offline: string | null },
  ) {
    super();
  }

  /** Its body, all of it, was flushed to the socket (the request ended). */
  get sent(): boolean {
    return this.bodySent;
  }

  /** Its answer has begun: status and headers came. */
  get answering(): boolean {
    return this.message !== null;
  }

  /**
   * The network service failed the request with `netError` (`net::ERR_…`): as Electron's
   * ClientRequest on its URL loader's `error`, a response under way is destroyed with it and the
   * request emits it (nothing once aborted).
   */
  fail(netError: string): void {
    if (this.aborted || this.failed) return;
    this.failed = true;
    this.out.delete(this);
    const error = new Error(netError);
    this.outgoing?.destroy();
    this.message?.destroy(error);
    this.emit('error', error);
  }

  /** A piece of a chunked body; `taken` once node:http took it, as Electron's once Chromium did. */
  write(piece: Buffer, _encoding?: string, taken?: () => void): boolean {
    if (!this.chunkedEncoding)
      throw new Error('The adapter writes pieces only with chunkedEncoding.');
    // Electron calls back only a piece taken: never for a request aborted.
    return this.started().write(piece, (error) => (error || this.aborted ? undefined : taken?.()));
  }

  end(body?: Buffer): void {
    const outgoing = this.outgoing ?? this.started();
    outgoing.end(body, () => {
      this.bodySent = true;
      if (!this.chunkedEncoding && body) this.uploaded = body.length;
    });
  }

  /** Electron's: the last progress reported, kept after the request failed or ended. */
  getUploadProgress(): { active: boolean; started: boolean; current: number; total: number } {
    const started = this.uploaded > 0;
    return { active: started, started, current: this.uploaded, total: this.uploaded };
  }

  private started(): ReturnType<typeof http.request> {
    if (this.outgoing) return this.outgoing;
    const url = this.options.url ?? '';
    const secure = url.startsWith('https:');
    const send = secure ? https.request : http.request;
    const outgoing = send(url, {
      method: this.options.method ?? 'GET',
      headers: { ...(this.options.headers ?? {}) },
      agent: secure ? this.agents.https : this.agents.http,
    });
    this.outgoing = outgoing;
    this.out.add(this);
    outgoing.on('close', () => this.out.delete(this));
    outgoing.on('response', (message: IncomingMessage) => {
      this.message = message;
      message.on('close', () => this.out.delete(this));
      this.answer(url, message);
    });
    outgoing.on('error', (error: NodeJS.ErrnoException) => {
      if (this.aborted || this.failed) return;
      const code = error.code === 'ECONNREFUSED' ? 'ERR_CONNECTION_REFUSED' : 'ERR_FAILED';
      this.emit('error', new Error(`net::${code}`));
    });
    // Chromium refuses a length the caller set, and any request with no network: it fails, nothing
    // sent.
    const named = Object.keys(this.options.headers ?? {}).map((name) => name.toLowerCase());
    const refusal = named.includes('content-length')
      ? 'net::ERR_INVALID_ARGUMENT'
      : this.network.offline;
    if (refusal !== null) {
      this.aborted = true;
      outgoing.destroy();
      process.nextTick(() => this.emit('error', new Error(refusal)));
    }
    return outgoing;
  }

  abort(): void {
    if (this.aborted) return;
    this.aborted = true;
    this.out.delete(this);
    this.outgoing?.destroy();
  }

  private answer(url: string, message: IncomingMessage): void {
    const status = message.statusCode ?? 0;
    const location = message.headers.location;
    if (status >= 300 && status < 400 && location) {
      const headers: Record<string, string[]> = {};
      for (const [name, value] of Object.entries(message.headers)) {
        if (value !== undefined) headers[name] = Array.isArray(value) ? value : [value];
      }
      message.resume();
      this.emit(
        'redirect',
        status,
        this.options.method ?? 'GET',
        new URL(location, url).href,
        headers,
      );
      // Electron: a redirect neither followed nor aborted during its event fails the request.
      if (!this.aborted) this.emit('error', new Error('Redirect was cancelled'));
      return;
    }
    this.emit('response', message);
  }
}

/** Electron's `net` (its `request`) over node:http, connections kept alive as Chromium keeps them. */
function nodeHttpNet(
  out: Set<NodeClientRequest>,
  network: { offline: string | null },
): ElectronNet {
  const agents = {
    http: new http.Agent({ keepAlive: true }),
    https: new https.Agent({ keepAlive: true }),
  };
  const net = {
    request(options: ClientRequestConstructorOptions | string) {
      const given = typeof options === 'string' ? { url: options } : options;
      return new NodeClientRequest(given, agents, out, network);
    },
    fetch(): Promise<Response> {
      return Promise.reject(
        new Error('net.fetch is not played here: the core sends manual requests'),
      );
    },
  };
  return net as unknown as ElectronNet;
}

/** Electron's `session` module: every partition's session is the same `net`, its proxy direct. */
function directSessions(net: ElectronNet): ElectronSessions {
  const session = { setProxy: async () => undefined, fetch: net.fetch };
  return { fromPartition: () => session } as unknown as ElectronSessions;
}

/** Main's fetch, and what the network service does to the requests out at a sleep. */
export interface MainNet {
  readonly fetch: FetchLike;
  /** Requests out now (sent, their answer not ended). */
  outNow(): number;
  /** Of those, the ones whose answer has begun (its status and headers came). */
  answeringNow(): number;
  /** Of those, the ones whose whole body was flushed to the connection. */
  sentNow(): number;
  /**
   * Every request out now fails with Chromium's `netError` (`net::ERR_NETWORK_IO_SUSPENDED`), as
   * when the machine suspends or its network changes; returns how many did. Later ones go through.
   */
  failAll(netError: string): number;
  /**
   * From now on every request fails as it starts, before it connects, with Chromium's `netError`
   * (`net::ERR_INTERNET_DISCONNECTED`: the machine has no network); null: the network is back.
   */
  offline(netError: string | null): void;
}

/** Main's fetch (the app's adapter), its network stack played by node:http in this process. */
export function createMainNet(): MainNet {
  const out = new Set<NodeClientRequest>();
  const network: { offline: string | null } = { offline: null };
  const net = nodeHttpNet(out, network);
  return {
    fetch: createElectronFetch(net, directSessions(net)),
    outNow: () => out.size,
    answeringNow: () => [...out].filter((request) => request.answering).length,
    sentNow: () => [...out].filter((request) => request.sent).length,
    failAll(netError) {
      const failing = [...out];
      for (const request of failing) request.fail(netError);
      return failing.length;
    },
    offline(netError) {
      network.offline = netError;
    },
  };
}

/** Main's fetch alone ({@link createMainNet}). */
export function createMainFetch(): FetchLike {
  return createMainNet().fetch;
}
