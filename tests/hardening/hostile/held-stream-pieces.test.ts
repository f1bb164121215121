/**
 * A hostile service's status stream (fal's held wait, held-reading.ts) sent in the smallest pieces
 * a network delivers: a byte at a time. Its reader kept the line not yet ended as one string,
 * joined each piece to it and split it all again: quadratic in a line's length (a line of 64,000
 * characters a byte at a time cost 0.2–0.26 s of CPU, three times a line of 32,000), and a stream
 * at its bound (1 MiB) of such lines held the answer worker, which every other answer of the app
 * waits behind, for 2.7–3.7 s. Each piece is now looked at once and a line joined once, when it
 * ends: 0.17–0.31 s for the same megabyte (load 3.5–4, three runs each), as much as the same
 * megabyte in short lines costs. The reader is the one the answer worker runs (HeldEvents), fed
 * here in this thread so that its own CPU is what is counted (`process.threadCpuUsage`), not the
 * pieces' transport; judged as a ratio to the short lines' read side by side. Line breaks stay what Server-Sent Events
 * say they are, however they are cut: a CR and its LF in two pieces are one break, and a bare CR
 * is one (a stream of CR-ended lines read as cut short when it closed after its last event).
 */
import { describe, expect, it } from 'vitest';
import { HeldEvents } from '../../../electron/core/service/held-reading';
import type { AnswerOutcome, HeldOutcome } from '../../../electron/core/service/answer-protocol';

const ID = '0b4d6c1e-4b8a-4f5e-9a53-6b1f1d2e3c4a';
/** held-reading.ts's bounds: one event (and one line), in characters; a stream, in bytes. */
const MAX_EVENT_CHARS = 64 * 1024;
const MAX_STREAM_BYTES = 1024 * 1024;
/** A line's length: near the bound. */
const LONG = 60_000;
/**
 * Lines of {@link LONG} read per stream: a quarter of what fits a stream at its bound (the whole
 * megabyte cost the quadratic reader 2.7–3.7 s); a line's cost is what the ratio compares.
 */
const LINES = Math.floor(MAX_STREAM_BYTES / 4 / (LONG + 10));
/**
 * A line near the bound costs a byte-at-a-time reader at most this many times what the same
 * bytes in short lines ({@link SHORT} characters) cost it, both read side by side in this thread:
 * a linear reader reads both alike (0.9–1.7×, at load 16 too), the quadratic one took 9–16× as
 * long for the long lines. A ratio, so a loaded machine slows both.
 */
const MAX_RATIO = 4;
/** A short line's length. */
const SHORT = 100;
/** Side-by-side rounds; the least of each kind is compared (noise only adds time). */
const ROUNDS = 2;

const encoder = new TextEncoder();
const completed = `data: ${JSON.stringify({ status: 'COMPLETED' })}\n\n`;

function reader(): HeldEvents {
  return new HeldEvents({
    kind: 'held',
    provider: 'fal',
    keys: ['sk-held-pieces-7211'],
    maxBytes: MAX_STREAM_BYTES,
    headers: [['content-type', 'text/event-stream']],
    answer: 'events',
    taskId: ID,
  });
}

const said = (outcome: AnswerOutcome | null): HeldOutcome | null =>
  outcome?.kind === 'held' ? outcome.said : null;

/**
 * `text`'s bytes pushed `size` at a time (pieces given: each as it is), then the stream closed:
 * what it said, after how many pieces, and the CPU this thread spent reading them.
 */
function read(text: string | readonly string[], size = 1) {
  const events = reader();
  const whole = typeof text === 'string' ? encoder.encode(text) : undefined;
  const pieces = typeof text === 'string' ? [] : text.map((piece) => encoder.encode(piece));
  const count = whole ? Math.ceil(whole.length / size) : pieces.length;
  const before = process.threadCpuUsage();
  let outcome: HeldOutcome | null = null;
  let pushed = 0;
  while (outcome === null && pushed < count) {
    const piece = whole ? whole.subarray(pushed * size, (pushed + 1) * size) : pieces[pushed];
    pushed += 1;
    outcome = said(events.push(piece ?? new Uint8Array()));
  }
  outcome ??= said(events.finish());
  const spent = process.threadCpuUsage(before);
  return { outcome, pushed, cpuMs: (spent.user + spent.system) / 1000 };
}

// The reader's code warmed up (its first use compiles it): what is measured is its work.
read(`: ${'x'.repeat(LONG)}\n${completed}`);

describe('a status stream of lines near the bound, sent a byte at a time', () => {
  const x = 'x'.repeat(LONG);
  const running = `data: ${JSON.stringify({ status: 'IN_PROGRESS', logs: x })}\n\n`;
  it.each([
    ['comment lines', `: ${x}\n`],
    ['`event:` lines', `event: ${x}\n`],
    ['`id:` lines', `id: ${x}\n`],
    ['data lines (a status with its logs)', running],
    ['comment lines ended by CR LF', `: ${x}\r\n`],
  ])('of %s of 60,000 characters is read in linear time', (_name, line) => {
    // The same kind of line cut to SHORT characters, as many as fill the same megabyte.
    const short = line.replace(x, x.slice(0, SHORT));
    const streams = {
      long: `${line.repeat(LINES)}${completed}`,
      short: `${short.repeat(Math.floor((LINES * line.length) / short.length))}${completed}`,
    };
    const least = { long: Infinity, short: Infinity };
    for (let round = 0; round < ROUNDS; round += 1) {
      for (const kind of ['long', 'short'] as const) {
        const { outcome, cpuMs } = read(streams[kind]);
        expect(outcome).toBe('ended');
        least[kind] = Math.min(least[kind], cpuMs);
      }
    }
    expect(least.long / least.short).toBeLessThan(MAX_RATIO);
  });

  it('a line past the bound breaks the wait at the byte that passes it, not later', () => {
    const { outcome, pushed } = read(`: ${'x'.repeat(2 * MAX_EVENT_CHARS)}`);
    expect(outcome).toBe('broken');
    expect(pushed).toBe(MAX_EVENT_CHARS + 1);
  });
});

describe('line breaks cut between pieces', () => {
  /** One status answer as two data lines of one event (joined by a line break: still JSON). */
  const split = (status: string, eol: string) =>
    `data: {"status":${eol}data: "${status}"}${eol}${eol}`;

  it.each([
    ['CR LF', '\r\n'],
    ['LF', '\n'],
    ['CR', '\r'],
  ])('an event of two data lines ended by %s, a byte at a time, says the task ended', (_n, eol) => {
    expect(read(split('COMPLETED', eol)).outcome).toBe('ended');
  });

  it('a CR and its LF in two pieces are one break: the event is not cut in two', () => {
    const pieces = ['data: {"status":\r', '\ndata: "COMPLETED"}\r', '\n\r', '\n'];
    expect(read(pieces).outcome).toBe('ended');
  });

  it('a stream of CR-ended lines closed after its last event leaves the task waiting', () => {
    const stream = split('IN_PROGRESS', '\r');
    expect(read([stream]).outcome).toBe('waiting');
    expect(read(stream).outcome).toBe('waiting');
  });

  it('a stream closed inside a line, or inside an event, is broken', () => {
    expect(read([completed.replace('\n\n', '\n')]).outcome).toBe('broken');
    expect(read([': open']).outcome).toBe('broken');
  });
});
