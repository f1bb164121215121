/**
 * Stand-ins for Electron's `net` module, behaving as its ClientRequest does where it matters:
 * in `manual` redirect mode a redirect that is neither followed nor aborted during the
 * `redirect` event fails the request with "Redirect was cancelled" (lib/common/api/
 * net-client-request.ts), and `abort()` ends the request without an `error` event.
 */
import { EventEmitter } from 'node:events';
import { Readable } from 'node:stream';
import type { ClientRequestConstructorOptions } from 'electron';

export class FakeClientRequest extends EventEmitter {
  aborted = false;
  ended = false;
  body: Buffer | null = null;
  private following: (() => void) | null = null;

  constructor(readonly options: ClientRequestConstructorOptions) {
    super();
  }

  end(body?: Buffer): void {
    this.ended = true;
    this.body = body ?? null;
    this.emit('ended');
  }

  abort(): void {
    this.aborted = true;
  }

  /** Electron's: nothing of a body was reported read onto a connection. */
  getUploadProgress(): { active: boolean; started: boolean; current: number; total: number } {
    return { active: false, started: false, current: 0, total: 0 };
  }

  followRedirect(): void {
    if (!this.following)
      throw new Error('followRedirect() called, but was not waiting for a redirect');
    this.following();
  }

  /** The server answered a redirect. */
  redirect(status: number, location: string, headers: Record<string, string[]> = {}): void {
    let followed = false;
    this.following = () => {
      followed = true;
    };
    try {
      this.emit('redirect', status, 'GET', location, headers);
    } finally {
      this.following = null;
      if (!followed && !this.aborted) this.emit('error', new Error('Redirect was cancelled'));
    }
  }

  /** The server answered; the body arrives through the returned stream's `push`. */
  respond(
    status: number,
    headers: Record<string, string | string[]> = {},
    statusMessage = 'OK',
  ): Readable {
    const message = Object.assign(new Readable({ read: () => undefined }), {
      statusCode: status,
      statusMessage,
      headers,
    });
    this.emit('response', message);
    return message;
  }
}

/** A `net` whose requests the test answers by hand; `fetch` records its calls. */
export function scriptedNet() {
  const requests: FakeClientRequest[] = [];
  const fetched: [string, RequestInit | undefined][] = [];
  return {
    requests,
    fetched,
    last(): FakeClientRequest {
      const request = requests.at(-1);
      if (!request) throw new Error('no request yet');
      return request;
    },
    request(options: ClientRequestConstructorOptions | string): FakeClientRequest {
      if (typeof options === 'string') throw new Error('options expected');
      if (!/^https?:/.test(options.url ?? '')) {
        throw new Error('ClientRequest only supports http: and https: protocols');
      }
      const request = new FakeClientRequest(options);
      requests.push(request);
      return request;
    },
    async fetch(url: string, init?: RequestInit): Promise<Response> {
      fetched.push([url, init]);
      return new Response('from net.fetch', { status: 200 });
    },
  };
}

/**
 * Electron's `session` module for the adapter: `fromPartition` gives one session per name, whose
 * `fetch` goes to `net` (recorded there) and whose proxy settings are recorded in `proxies`, in
 * order with the requests made through it (`events`).
 */
export function fakeSessions(net: Pick<ReturnType<typeof scriptedNet>, 'fetch'>) {
  const events: string[] = [];
  const made = new Map<string, { partition: string; options: unknown }>();
  const sessions = {
    events,
    made,
    fromPartition(partition: string, options?: { cache?: boolean }) {
      const existing = made.get(partition);
      if (existing) return existing;
      const session = {
        partition,
        options,
        async setProxy(config: unknown) {
          await Promise.resolve();
          events.push(`setProxy ${partition} ${JSON.stringify(config)}`);
        },
        fetch(url: string, init?: RequestInit) {
          events.push(`fetch ${partition} ${url}`);
          return net.fetch(url, init);
        },
      };
      made.set(partition, session);
      return session;
    },
  };
  return sessions;
}
