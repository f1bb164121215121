/**
 * The image renderer's page in a Chromium started directly (no Playwright, no DevTools protocol),
 * for bench processes that must hold nothing but what the app's main process holds: the built
 * page, the core's RendererImageEngine and ImageJobSources, and one loopback HTTP server.
 *
 * The server plays the two parts Electron plays in the app: the protocol handlers (the page's
 * files under its policy, each job's bytes behind its one-time address) and the preload's one
 * MessagePort. The port's stand-in is a classic script served beside the page and run before it
 * (as a preload runs before the page): it hands the page its port as the preload does, then
 * carries messages over plain HTTP on the same origin — requests by a long poll, answers by a
 * POST of JSON (bytes as base64). That costs a JSON encode per message where Electron's
 * MessagePortMain clones; the bench's figures carry that cost, never hide any.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { createServer, type IncomingMessage, type Server, type ServerResponse } from 'node:http';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Readable } from 'node:stream';
import type { ReadableStream as WebReadableStream } from 'node:stream/web';
import { systemClock } from '../../../electron/adapters/system-clock';
import { RendererImageEngine } from '../../../electron/core/images/renderer-image-engine';
import { serveAppRequest } from '../../../electron/app/protocol/app-request';
import { imageRendererCsp } from '../../../electron/app/protocol/csp';
import { APP_SCHEME, IMAGE_PAGE_HOST } from '../../../electron/app/protocol/schemes';
import type { ImageRendererEvents } from '../../../electron/ports/image-renderer-host';
import { IMAGE_PORT_MESSAGE, type PageRequest } from '../../../shared/image-renderer/protocol';
import { resample, sampleTree, type ProcessSample } from './process-stats';

/**
 * Headless, sandbox-less, quiet: the flags the journeys' Chromium host uses. Off the record, as
 * the app's image renderer is (its session partition is in memory): a profile on disk lets
 * Chromium page large blobs out to files. Never throttled in the background, as the app's image
 * window is not (`backgroundThrottling: false`).
 */
const CHROMIUM_FLAGS = [
  '--headless',
  '--incognito',
  '--disable-renderer-backgrounding',
  '--disable-background-timer-throttling',
  '--disable-backgrounding-occluded-windows',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--disable-quic',
];

/** The preload's stand-in, run in the page before its module (a classic script in <head>). */
const BRIDGE_SCRIPT = `(() => {
  const channel = new MessageChannel();
  const b64 = (bytes) => { let s = ''; for (let i = 0; i < bytes.length; i += 0x8000) s += String.fromCharCode.apply(null, bytes.subarray(i, i + 0x8000)); return btoa(s); };
  const encode = (value) => JSON.stringify(value, (key, v) => v instanceof Uint8Array ? { $bytes: b64(v) } : v);
  channel.port1.onmessage = (event) => { void fetch('/bridge/answer', { method: 'POST', body: encode(event.data) }); };
  const poll = async () => {
    for (;;) {
      const response = await fetch('/bridge/next', { cache: 'no-store' }).catch(() => null);
      if (!response || !response.ok) return;
      for (const request of await response.json()) channel.port1.postMessage(request);
    }
  };
  window.addEventListener('load', () => {
    window.postMessage(${JSON.stringify(IMAGE_PORT_MESSAGE)}, location.origin, [channel.port2]);
    void poll();
  });
})();`;

/** JSON with `{ $bytes: base64 }` read back as Uint8Array, as a cloned message would arrive. */
function decodeAnswer(text: string): unknown {
  return JSON.parse(text, (_key, value: unknown) => {
    const bytes = (value as { $bytes?: unknown } | null)?.$bytes;
    return typeof bytes === 'string' ? new Uint8Array(Buffer.from(bytes, 'base64')) : value;
  });
}

function readBody(req: IncomingMessage): Promise<string> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    req.on('data', (chunk: Buffer) => chunks.push(chunk));
    req.on('end', () => resolve(Buffer.concat(chunks).toString('utf8')));
    req.on('error', reject);
  });
}

function send(response: Response, res: ServerResponse): void {
  res.writeHead(response.status, Object.fromEntries(response.headers));
  if (!response.body) res.end();
  else Readable.fromWeb(response.body as WebReadableStream<Uint8Array>).pipe(res);
}

/** Whether any process of the group `pgid`, or of `tree`, is left (signal 0 sends nothing). */
function treeAlive(pgid: number, tree: readonly ProcessSample[]): boolean {
  if (resample(tree).length > 0) return true;
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

/**
 * Waits until no process of Chromium's (its group `pgid`, the pid this bench started, and the
 * processes `tree` found under it) is left: asked again each 20 ms, for 5 s; then what is left
 * is killed, and waited for as long again.
 */
async function treeEnded(pgid: number, tree: readonly ProcessSample[]): Promise<void> {
  for (const last of [false, true]) {
    if (last) {
      for (const pid of [-pgid, ...resample(tree).map((one) => one.pid)]) {
        try {
          process.kill(pid, 'SIGKILL');
        } catch {
          // ended meanwhile
        }
      }
    }
    for (let asked = 0; asked < 250 && treeAlive(pgid, tree); asked += 1) {
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
    if (!treeAlive(pgid, tree)) return;
  }
  process.stderr.write(`bench: Chromium's processes (group ${pgid}) did not end\n`);
}

/** One renderer's message queue: requests wait for the page's next poll. */
class Bridge {
  private queue: PageRequest[] = [];
  private waiting: ServerResponse | null = null;
  events: ImageRendererEvents | null = null;

  post(request: PageRequest): void {
    this.queue.push(request);
    this.flush();
  }

  poll(res: ServerResponse): void {
    this.waiting?.end('[]');
    this.waiting = res;
    this.flush();
  }

  end(): void {
    this.waiting?.writeHead(410).end();
    this.waiting = null;
    this.queue = [];
    this.events = null;
  }

  private flush(): void {
    if (!this.waiting || this.queue.length === 0) return;
    this.waiting.writeHead(200, {
      'Content-Type': 'application/json',
      'Cache-Control': 'no-store',
    });
    this.waiting.end(JSON.stringify(this.queue));
    this.waiting = null;
    this.queue = [];
  }
}

export interface BridgedPage {
  readonly engine: RendererImageEngine;
  /** The running Chromium's process id (its renderers are its descendants), if one runs. */
  chromiumPid(): number | null;
  close(): Promise<void>;
}

interface PageServer {
  readonly server: Server;
  readonly origin: string;
}

function listen(handler: (req: IncomingMessage, res: ServerResponse) => void): Promise<PageServer> {
  const server = createServer(handler);
  return new Promise((resolve) => {
    server.listen(0, '127.0.0.1', () => {
      const address = server.address();
      const port = typeof address === 'object' && address ? address.port : 0;
      resolve({ server, origin: `http://127.0.0.1:${port}` });
    });
  });
}

/** Starts the page's server; Chromium starts when the engine first needs its renderer. */
export async function startBridgedPage(options: {
  readonly pageRoot: string;
  readonly chromiumPath: string;
  readonly jobTimeoutMs?: number;
}): Promise<BridgedPage> {
  const bridge = new Bridge();
  const indexHtml = (await readFile(join(options.pageRoot, 'index.html'), 'utf8')).replace(
    '<script type="module"',
    '<script src="./bridge.js"></script><script type="module"',
  );
  let engine: RendererImageEngine | null = null;
  let csp = '';
  const page = await listen((req, res) => {
    const path = (req.url ?? '/').split('?')[0] ?? '/';
    if (path === '/bridge/next') return bridge.poll(res);
    if (path === '/bridge/answer') {
      void readBody(req).then((text) => {
        res.writeHead(204).end();
        bridge.events?.answer(decodeAnswer(text));
      });
      return;
    }
    if (path === '/bridge.js' || path === '/index.html') {
      res.writeHead(200, {
        'Content-Type': path === '/index.html' ? 'text/html' : 'text/javascript',
        'Content-Security-Policy': csp,
      });
      return res.end(path === '/index.html' ? indexHtml : BRIDGE_SCRIPT);
    }
    const request = new Request(`http://127.0.0.1${req.url ?? '/'}`, { method: req.method });
    if (path.startsWith('/job/'))
      return void engine!.sources.serve(request).then((r) => send(r, res));
    const asApp = new Request(`${APP_SCHEME}://${IMAGE_PAGE_HOST}${req.url ?? '/'}`, request);
    void serveAppRequest(asApp, options.pageRoot, csp, IMAGE_PAGE_HOST).then((r) => send(r, res));
  });
  csp = imageRendererCsp(page.origin);
  let chromium: ChildProcess | null = null;
  let profile: string | null = null;
  /**
   * Ends the running Chromium and removes its profile. Its children (zygotes, renderers, the
   * network service writing its cache's index) outlive the browser for a moment and still write
   * into the profile: removed under them, the folder came back and stayed in /tmp. Every process
   * under the browser (read before it ends: then they are the init process's) and its group are
   * waited for first, then the folder goes. Stops run one after another: a second stop asked
   * while the first waited (the engine's close, then the page's) once removed the folder under
   * the first one's still-running children.
   */
  const stopOnce = async () => {
    const running = chromium;
    const folder = profile;
    chromium = null;
    profile = null;
    bridge.end();
    const tree = running?.pid === undefined ? [] : sampleTree(running.pid);
    if (running && running.exitCode === null) {
      const exited = new Promise((resolve) => running.once('exit', resolve));
      running.kill('SIGTERM');
      await exited;
    }
    if (running?.pid !== undefined) await treeEnded(running.pid, tree);
    if (folder) {
      await rm(folder, { recursive: true, force: true, maxRetries: 10 }).catch((error: unknown) =>
        process.stderr.write(`bench: Chromium's profile ${folder} stays: ${String(error)}\n`),
      );
    }
  };
  let stopping: Promise<void> = Promise.resolve();
  const stopChromium = () => (stopping = stopping.then(stopOnce));
  engine = new RendererImageEngine({
    clock: systemClock,
    pageOrigin: page.origin,
    ...(options.jobTimeoutMs ? { jobTimeoutMs: options.jobTimeoutMs } : {}),
    host: {
      sourceUrl: (token) => `${page.origin}/job/${token}`,
      async start(events) {
        await stopChromium();
        profile = await mkdtemp(join(tmpdir(), 'pictor-bench-chromium-'));
        bridge.events = events;
        // A process group of its own (its pid), so that its children's end can be waited for.
        const started = spawn(
          options.chromiumPath,
          [...CHROMIUM_FLAGS, `--user-data-dir=${profile}`, `${page.origin}/index.html`],
          { stdio: 'ignore', detached: true },
        );
        chromium = started;
        started.once('exit', () => {
          if (chromium === started) events.gone('Chromium exited');
        });
        return { post: (request) => bridge.post(request), close: () => void stopChromium() };
      },
    },
  });
  const running = engine;
  return {
    engine: running,
    chromiumPid: () => chromium?.pid ?? null,
    async close() {
      await running.dispose();
      await stopChromium();
      await new Promise((resolve) => page.server.close(resolve));
    },
  };
}
