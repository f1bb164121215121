/**
 * The strict response reader of image downloads against a hostile host: every case of
 * hostile-responses.ts through a real loopback socket, written whole and one byte per write,
 * ends as the case says (refused with its code, at the head or in the body, or read exactly);
 * nothing is left open and no error escapes.
 */
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createPinnedFetch } from '../../../../electron/core/download/pinned-fetch';
import { HOSTILE_CASES } from './hostile-responses';
import { deliver, rawHost, type RawHost } from './raw-http-host';

const pinned = createPinnedFetch();
const LOOPBACK = { address: '127.0.0.1', family: 4 } as const;

function codeOf(error: unknown): string {
  for (let current = error, depth = 0; current && depth < 4; depth += 1) {
    const code = (current as { code?: unknown }).code;
    if (typeof code === 'string') return code;
    current = (current as { cause?: unknown }).cause;
  }
  return `no code: ${String(error)}`;
}

/** What the reader makes of the case served at `path`: a code, or `status body`. */
async function outcomeOf(port: number, path: string, method = 'GET'): Promise<string> {
  try {
    const response = await pinned(`http://127.0.0.1:${port}${path}`, { method }, LOOPBACK);
    const body = Buffer.from(await response.arrayBuffer()).toString('latin1');
    return `${response.status} ${body}`;
  } catch (error) {
    return codeOf(error);
  }
}

let host: RawHost;

beforeAll(async () => {
  host = await rawHost(async (socket, head) => {
    const [, index, mode] = /^\w+ \/case\/(\d+)\/(whole|bytes) /.exec(head) ?? [];
    const bytes = Buffer.from(HOSTILE_CASES[Number(index)]?.bytes ?? '', 'latin1');
    await deliver(socket, bytes, mode === 'bytes');
  });
});

afterAll(async () => {
  await host.close();
});

describe.each(['whole', 'bytes'])('a hostile host, its answer written %s', (mode) => {
  it.each(HOSTILE_CASES.map((each, index) => [each.name, index] as const))(
    '%s',
    async (_name, index) => {
      const each = HOSTILE_CASES[index];
      expect(await outcomeOf(host.port, `/case/${index}/${mode}`, each?.method)).toBe(
        each?.expected,
      );
    },
  );
});

it('sends Host, the caller’s headers and Connection: close, and nothing else', async () => {
  const before = host.heads.length;
  await outcomeOf(host.port, `/case/${HOSTILE_CASES.length - 4}/whole?q=1#frag`);
  const head = host.heads[before] ?? '';
  expect(head.split('\r\n')).toEqual([
    `GET /case/${HOSTILE_CASES.length - 4}/whole?q=1 HTTP/1.1`,
    `Host: 127.0.0.1:${host.port}`,
    'Connection: close',
  ]);
});
