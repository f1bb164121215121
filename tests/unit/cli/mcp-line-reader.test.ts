/**
 * How `pictor mcp` cuts its client's bytes into lines (electron/cli/mcp/line-reader.ts) and reads
 * them as messages (mcp-stdio-transport.ts): the SDK's rules (a line ends at `\n`, one `\r`
 * before it dropped, 10 MB at most held of what is not read yet, a line that is no message
 * reported and passed over) with each byte searched once and copied a bounded number of times,
 * counted here, not timed. The SDK's ReadBuffer, which joined and searched its whole buffer again
 * for each chunk, is the oracle for the limit.
 */
import { PassThrough } from 'node:stream';
import { ReadBuffer } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, describe, expect, it, vi } from 'vitest';
import { LineReader } from '../../../electron/cli/mcp/line-reader';
import { StdioAnswerTransport } from '../../../electron/cli/mcp/mcp-stdio-transport';
import { seededRandom } from '../../support/seeded-random';
import { UNTIL } from '../../support/waits';

afterEach(() => {
  vi.restoreAllMocks();
});

/** Every line `reader` has whole now. */
function drain(reader: LineReader): string[] {
  const lines: string[] = [];
  for (let line = reader.next(); line !== null; line = reader.next()) lines.push(line);
  return lines;
}

/** The lines a stream of `text` holds, by the rule itself: the last part has not ended. */
function linesOf(text: string): string[] {
  return text
    .split('\n')
    .slice(0, -1)
    .map((line) => line.replace(/\r$/, ''));
}

/** `bytes` cut at random points into chunks of 0 to `most` bytes. */
function cut(bytes: Buffer, random: (below: number) => number, most: number): Buffer[] {
  const chunks: Buffer[] = [];
  for (let at = 0; at < bytes.length;) {
    const size = random(most + 1);
    chunks.push(bytes.subarray(at, at + size));
    at += size;
  }
  return chunks;
}

describe('LineReader', () => {
  // Pieces that matter at a cut: multi-byte characters (2, 3 and 4 bytes), CR before and not
  // before a newline, empty lines, a lone CR at a line's end and two.
  const PIECES = ['a', 'é', '€', '😀', '\r', '\n', '\r\n', '\n\n', '{"x":1}', ' ', '\r\r\n'];

  it.each([1, 2, 3, 4, 5, 6, 7, 8])(
    'gives the lines of a stream however it is cut (seed %i)',
    (seed) => {
      const random = seededRandom(seed);
      let text = '';
      while (text.length < 4_000) text += PIECES[random(PIECES.length)]!;
      const bytes = Buffer.from(text, 'utf8');
      const reader = new LineReader();
      const lines: string[] = [];
      for (const chunk of cut(bytes, random, 1 + random(40))) {
        reader.append(chunk);
        lines.push(...drain(reader));
      }
      expect(lines).toEqual(linesOf(text));
    },
  );

  it('gives a line cut inside each of its characters whole, and one CR dropped at its end', () => {
    const text = 'é€😀x\r\r\n';
    const bytes = Buffer.from(text, 'utf8');
    for (let at = 0; at <= bytes.length; at += 1) {
      const reader = new LineReader();
      reader.append(bytes.subarray(0, at));
      const before = drain(reader);
      reader.append(bytes.subarray(at));
      expect([...before, ...drain(reader)], `cut at byte ${String(at)}`).toEqual(['é€😀x\r']);
    }
  });

  it('holds what has not ended, and gives it once it ends', () => {
    const reader = new LineReader();
    reader.append(Buffer.from('{"a":'));
    expect(reader.next()).toBeNull();
    reader.append(Buffer.from('1}\n{"b"'));
    expect(drain(reader)).toEqual(['{"a":1}']);
    reader.append(Buffer.from(':2}\n'));
    expect(drain(reader)).toEqual(['{"b":2}']);
    expect(reader.next()).toBeNull();
  });

  it.each([
    ['one chunk over the limit', [40]],
    ['the limit reached exactly, then a byte more', [16, 16, 0, 1]],
    ['lines read in between, then an unended one over', [10, 10, 10, 10, 10, 10, 10]],
  ])('keeps the SDK’s limit: %s', (_name, sizes) => {
    const max = 32;
    // Each chunk ends a line every 10 bytes where its sizes allow (the third case), never else.
    const chunkOf = (size: number, index: number): Buffer =>
      Buffer.from(size === 10 && index < 3 ? `${'x'.repeat(9)}\n` : 'y'.repeat(size), 'utf8');
    const ours = new LineReader(max);
    const sdks = new ReadBuffer({ maxBufferSize: max });
    sizes.forEach((size, index) => {
      const chunk = chunkOf(size, index);
      const outcome = (act: () => void): string => {
        try {
          act();
          return 'taken';
        } catch (error) {
          return (error as Error).message;
        }
      };
      const sdkSaid = outcome(() => sdks.append(chunk));
      const weSaid = outcome(() => ours.append(chunk));
      expect(weSaid, `chunk ${String(index)}`).toBe(sdkSaid);
      // Whole lines are read as they come, as the transports do.
      const sdkLines: string[] = [];
      for (;;) {
        try {
          if (sdks.readMessage() === null) break;
        } catch {
          sdkLines.push('line');
          continue;
        }
        sdkLines.push('line');
      }
      expect(
        drain(ours).map(() => 'line'),
        `chunk ${String(index)}`,
      ).toEqual(sdkLines);
    });
  });

  it('holds nothing after the limit was passed', () => {
    const reader = new LineReader(8);
    reader.append(Buffer.from('abcde'));
    expect(() => reader.append(Buffer.from('fghij'))).toThrow(
      'ReadBuffer exceeded maximum size of 8 bytes',
    );
    reader.append(Buffer.from('ok\n'));
    expect(drain(reader)).toEqual(['ok']);
  });

  /**
   * What `work` copies and searches: the bytes set into or moved within a buffer, and the bytes
   * each search for a byte looked at; and the largest buffer made.
   */
  function countWork(work: () => void): { copied: number; searched: number; largest: number } {
    const set = vi.spyOn(Uint8Array.prototype, 'set');
    const moved = vi.spyOn(Uint8Array.prototype, 'copyWithin');
    const concat = vi.spyOn(Buffer, 'concat');
    const search = vi.spyOn(Buffer.prototype, 'indexOf');
    const made = vi.spyOn(Buffer, 'allocUnsafe');
    work();
    const copied =
      set.mock.calls.reduce((sum, [from]) => sum + (from as ArrayLike<number>).length, 0) +
      moved.mock.calls.reduce((sum, [, from, to]) => sum + ((to ?? 0) - from), 0) +
      concat.mock.calls.reduce(
        (sum, [parts]) => sum + parts.reduce((size, part) => size + part.length, 0),
        0,
      );
    // A search looks at bytes up to the first it finds, or at all of them.
    const searched = search.mock.contexts.reduce((sum, buffer, call) => {
      const found = search.mock.results[call]?.value as number;
      return sum + (found === -1 ? buffer.length : found + 1);
    }, 0);
    const largest = Math.max(0, ...made.mock.calls.map(([size]) => size));
    vi.restoreAllMocks();
    return { copied, searched, largest };
  }

  it.each([
    ['1 MiB in 1 KiB chunks', 1024 * 1024, 1024],
    ['64 KiB a byte at a time', 64 * 1024, 1],
  ])(
    'copies each byte of a long line a bounded number of times and searches it once: %s',
    (_name, size, chunk) => {
      const line = Buffer.alloc(size, 0x61);
      const reader = new LineReader();
      let read: string | null = null;
      const work = countWork(() => {
        for (let at = 0; at < line.length; at += chunk) {
          reader.append(line.subarray(at, at + chunk));
          if (reader.next() !== null) throw new Error('a line before its end');
        }
        reader.append(Buffer.from('\n'));
        read = reader.next();
      });
      expect(read).toHaveLength(line.length);
      // The SDK's ReadBuffer copied and searched 512 MiB for the first line (1,024 chunks, each
      // joined to and searched with all the ones before it) and 2 GiB for the second.
      expect(work.copied, 'bytes copied').toBeLessThanOrEqual(3 * (line.length + 1));
      expect(work.searched, 'bytes searched').toBe(line.length + 1);
    },
  );

  it('lets a buffer of more than a mebibyte go once it holds nothing, and keeps a smaller one', () => {
    const reader = new LineReader();
    const next = () =>
      countWork(() => {
        reader.append(Buffer.from('{"after":1}'));
      });
    reader.append(Buffer.alloc(100 * 1024, 0x61));
    reader.append(Buffer.from('\n'));
    expect(reader.next()).toHaveLength(100 * 1024);
    expect(next().largest, 'a buffer made after a 100 KiB line').toBe(0);
    reader.append(Buffer.from('\n'));
    expect(reader.next()).toBe('{"after":1}');
    reader.append(Buffer.alloc(2 * 1024 * 1024, 0x61));
    reader.append(Buffer.from('\n'));
    expect(reader.next()).toHaveLength(2 * 1024 * 1024);
    expect(next().largest, 'the buffer made after a 2 MiB line').toBe(64 * 1024);
    reader.append(Buffer.from('\n'));
    expect(reader.next()).toBe('{"after":1}');
  });

  it.each([
    [11, 4096, 600],
    [12, 4096, 600],
    [13, 100_000, 20_000],
    [14, 100_000, 20_000],
  ])(
    'holds no buffer past twice its limit, whatever the lines and chunks (seed %i, limit %i)',
    (seed, limit, most) => {
      const random = seededRandom(seed);
      let text = '';
      while (text.length < 50 * limit) text += `${'z'.repeat(random(limit - most))}\n`;
      const bytes = Buffer.from(text, 'utf8');
      const reader = new LineReader(limit);
      const lines: string[] = [];
      const work = countWork(() => {
        for (const chunk of cut(bytes, random, most)) {
          reader.append(chunk);
          lines.push(...drain(reader));
        }
      });
      expect(lines).toEqual(linesOf(text));
      expect(work.largest, 'the largest buffer made').toBeLessThanOrEqual(
        Math.max(64 * 1024, 2 * limit),
      );
      expect(work.searched, 'bytes searched').toBe(bytes.length);
      expect(work.copied, 'bytes copied').toBeLessThanOrEqual(3 * bytes.length);
    },
  );
});

describe('StdioAnswerTransport', () => {
  function connected() {
    const calls = new PassThrough();
    const answers = new PassThrough();
    const transport = new StdioAnswerTransport(calls, answers);
    const messages: JSONRPCMessage[] = [];
    const errors: string[] = [];
    let closed = 0;
    transport.onmessage = (message) => messages.push(message);
    transport.onerror = (error) => errors.push(error.message);
    transport.onclose = () => (closed += 1);
    return { calls, answers, transport, messages, errors, closed: () => closed };
  }

  it('reads the messages of lines cut anywhere, and reports a line that is none and reads on', async () => {
    const { calls, transport, messages, errors } = connected();
    await transport.start();
    const ping = (id: number) => JSON.stringify({ jsonrpc: '2.0', id, method: 'ping' });
    const bytes = Buffer.from(`${ping(1)}\r\nnot json\n[1,2]\n${ping(2)}\n${ping(3)}`, 'utf8');
    for (let at = 0; at < bytes.length; at += 7) calls.write(bytes.subarray(at, at + 7));
    await vi.waitFor(
      () => expect(messages.map((m) => (m as { id: number }).id)).toEqual([1, 2]),
      UNTIL,
    );
    expect(errors, 'one error for each line that is no message').toHaveLength(2);
    calls.write('\n');
    await vi.waitFor(() => expect(messages).toHaveLength(3), UNTIL);
  });

  it('reports a message its reader threw on and reads on', async () => {
    const { calls, transport, errors, messages } = connected();
    transport.onmessage = (message) => {
      messages.push(message);
      if (messages.length === 1) throw new Error('the reader failed');
    };
    await transport.start();
    calls.write(
      '{"jsonrpc":"2.0","id":1,"method":"ping"}\n{"jsonrpc":"2.0","id":2,"method":"ping"}\n',
    );
    await vi.waitFor(() => expect(messages).toHaveLength(2), UNTIL);
    expect(errors).toEqual(['the reader failed']);
  });

  it('closes, reading no more, when a line passes the SDK’s 10 MB', async () => {
    const { calls, transport, messages, errors, closed } = connected();
    await transport.start();
    calls.write(Buffer.alloc(10 * 1024 * 1024, 0x61));
    calls.write(Buffer.from('a'));
    await vi.waitFor(() => expect(closed()).toBe(1), UNTIL);
    expect(errors).toEqual(['ReadBuffer exceeded maximum size of 10485760 bytes']);
    expect(calls.listenerCount('data'), 'nothing reads the client any more').toBe(0);
    expect(calls.isPaused()).toBe(true);
    calls.write('{"jsonrpc":"2.0","id":1,"method":"ping"}\n');
    expect(messages).toEqual([]);
  });

  it('writes each answer as one line and refuses a second start', async () => {
    const { answers, transport } = connected();
    await transport.start();
    await expect(transport.start()).rejects.toThrow('already started');
    await transport.send({ jsonrpc: '2.0', id: 7, result: {} });
    expect(String(answers.read())).toBe('{"jsonrpc":"2.0","id":7,"result":{}}\n');
  });
});
