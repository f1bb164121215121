/**
 * A pipe descriptor in this process holding `payload` to its end, as the Linux `pictor` wrapper
 * hands the binary one (resources/linux/pictor.sh): a FIFO in a temporary folder, opened for
 * reading, written in full and its writer closed, so a reader gets the payload and then its end.
 * Node makes no anonymous pipe; fstat says FIFO for both.
 */
import { closeSync, constants, openSync, writeSync } from 'node:fs';
import path from 'node:path';
import { makeFifo, type Tool } from './tools';
import { removeFolderSync, tempFolderSync } from './temp-folders';

/** The read end's descriptor; the FIFO's folder is gone once it returns. */
export function pipeHolding(mkfifo: Tool, payload: Buffer | string): number {
  const dir = tempFolderSync('key-pipe');
  try {
    const fifo = path.join(dir, 'fifo');
    makeFifo(mkfifo, fifo);
    // Non-blocking, so opening waits for no writer; the payload is whole before the first read.
    const reader = openSync(fifo, constants.O_RDONLY | constants.O_NONBLOCK);
    const writer = openSync(fifo, constants.O_WRONLY);
    writeSync(writer, typeof payload === 'string' ? Buffer.from(payload) : payload);
    closeSync(writer);
    return reader;
  } finally {
    removeFolderSync(dir);
  }
}
