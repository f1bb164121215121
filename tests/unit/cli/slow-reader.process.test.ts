/**
 * A reader slower than the command (`pictor list --all | less`): stdout on a pipe queues what the
 * pipe cannot take yet, in memory, and a listing that never waited queued every row of a million
 * tasks. processOutput's `caughtUp` waits for the reader, on a real FIFO opened as Node opens a
 * piped stdout (a net.Socket on the descriptor); printPage waits on it between history pages.
 *
 * Named `*.process.test.*`: a worker thread closes, when it ends, every descriptor it opened with
 * fs.open that fs.close did not close, and a socket's own close is not fs.close; in a thread,
 * these two were closed again at its end, by then another's (libuv's io_uring ring: the run
 * aborted).
 */
import { constants, openSync } from 'node:fs';
import { Socket } from 'node:net';
import path from 'node:path';
import { Writable } from 'node:stream';
import { afterEach, describe, expect, it } from 'vitest';
import { UNREAD_OUTPUT_BYTES, printPage } from '../../../electron/cli/list-paging';
import { processOutput } from '../../../electron/cli/main';
import { fifoMaker, makeFifo, needing } from '../../support/tools';
import { TempFolders } from '../../support/temp-folders';

const MKFIFO = fifoMaker();
const MiB = 1024 * 1024;

/** A sink that takes every write at once (stderr, untested here). */
const takesAll = () =>
  new Writable({
    write: (_chunk, _encoding, done) => done(),
  });

const opened: Socket[] = [];
const dirs = new TempFolders();
afterEach(async () => {
  for (const socket of opened.splice(0)) socket.destroy();
  await dirs.removeAll();
});

/** A FIFO's two ends as the sockets Node makes of a piped stdout; the reader reads nothing yet. */
function pipe(): { writer: Socket; reader: Socket } {
  const dir = dirs.makeSync('slow-reader');
  const fifo = path.join(dir, 'fifo');
  makeFifo(MKFIFO, fifo);
  const readEnd = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
  const writeEnd = openSync(fifo, constants.O_WRONLY | constants.O_NONBLOCK);
  const reader = new Socket({ fd: readEnd, readable: true, writable: false });
  reader.pause();
  const writer = new Socket({ fd: writeEnd, readable: false, writable: true });
  opened.push(reader, writer);
  return { writer, reader };
}

/** Writes `bytes` through `write` in 64 KiB lines. */
function writeLines(write: (text: string) => void, bytes: number): void {
  const line = `${'x'.repeat(64 * 1024 - 1)}\n`;
  for (let written = 0; written < bytes; written += line.length) write(line);
}

/** A few turns of the event loop: long enough for a pipe already written to answer. */
async function turns(count = 5): Promise<void> {
  for (let turn = 0; turn < count; turn += 1) await new Promise((done) => setImmediate(done));
}

describe.skipIf(!MKFIFO.path)(needing(MKFIFO, 'the output of a command'), () => {
  it('waits until the reader has taken all but the bound, then goes on', async () => {
    const { writer, reader } = pipe();
    const output = processOutput(new AbortController(), { stdout: writer, stderr: takesAll() });
    writeLines(output.stdout, 4 * MiB);
    expect(writer.writableLength).toBeGreaterThan(3 * MiB);
    let caughtUp = false;
    const waiting = output.caughtUp(MiB).then(() => (caughtUp = true));
    await turns();
    expect(caughtUp).toBe(false);
    let read = 0;
    reader.on('data', (chunk: Buffer) => (read += chunk.length));
    reader.resume();
    await waiting;
    expect(writer.writableLength).toBeLessThanOrEqual(MiB);
    expect(read).toBeGreaterThanOrEqual(3 * MiB - 64 * 1024);
    expect(output.closed()).toBe(false);
  });

  it('answers at once when what waits is within the bound', async () => {
    const { writer } = pipe();
    const output = processOutput(new AbortController(), { stdout: writer, stderr: takesAll() });
    writeLines(output.stdout, 512 * 1024);
    await output.caughtUp(MiB);
    expect(writer.writableLength).toBeGreaterThan(0);
  });

  it('ends the wait, and the run, when the reader closes its end unread', async () => {
    const { writer, reader } = pipe();
    const stop = new AbortController();
    const output = processOutput(stop, { stdout: writer, stderr: takesAll() });
    writeLines(output.stdout, 4 * MiB);
    const waiting = output.caughtUp(0);
    reader.destroy();
    await waiting;
    expect(output.closed()).toBe(true);
    expect(stop.signal.aborted).toBe(true);
  });
});

describe('a listing page by page', () => {
  /** A history of `pages` pages of 500 rows, counting the pages read. */
  function history(pages: number) {
    let reads = 0;
    const read = (limit: number, cursor: string | null) => {
      reads += 1;
      const page = cursor === null ? 0 : Number(cursor);
      return {
        items: Array.from({ length: Math.min(limit, 500) }, (_, index) => page * 500 + index),
        nextCursor: page + 1 < pages ? String(page + 1) : null,
      };
    };
    return { read, reads: () => reads };
  }

  it('reads the next page only once the reader has caught up', async () => {
    const { read, reads } = history(3);
    const waits: { bound: number; release: () => void }[] = [];
    const caughtUp = (bound: number) =>
      new Promise<void>((release) => void waits.push({ bound, release }));
    const printed: number[] = [];
    const listing = printPage(
      { limit: null, cursor: null },
      read,
      (row) => (printed.push(row), true),
      { interrupt: new AbortController().signal, caughtUp },
    );
    expect(reads()).toBe(1);
    expect(printed).toHaveLength(500);
    await turns();
    expect(waits.map((wait) => wait.bound)).toEqual([UNREAD_OUTPUT_BYTES]);
    expect(reads()).toBe(1);
    waits[0]?.release();
    await turns();
    expect(reads()).toBe(2);
    waits[1]?.release();
    expect(await listing).toBeNull();
    expect(reads()).toBe(3);
    expect(printed).toHaveLength(1500);
    // Not after the last page: nothing is left to read.
    expect(waits).toHaveLength(2);
  });

  it('reads no further once the reader is gone while it waited', async () => {
    const { read, reads } = history(3);
    const stop = new AbortController();
    const listing = printPage({ limit: null, cursor: null }, read, () => true, {
      interrupt: stop.signal,
      caughtUp: async () => stop.abort(),
    });
    expect(await listing).toBe('1');
    expect(reads()).toBe(1);
  });
});
