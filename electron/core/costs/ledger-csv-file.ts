/**
 * The ledger's CSV written to the file the user chose in main's own save dialog, chunk by chunk
 * as the ledger is read a page at a time (ledger-reader.ts csvChunks): a million tasks never sit
 * in memory as one string, and the main thread reads one page between two writes. As the library
 * export does: a new `.part` file beside the target, synced, then renamed over it, so a crash or
 * a full disk leaves the file the user had, never half of the new one.
 */
import { randomBytes } from 'node:crypto';
import { open, rename, rm } from 'node:fs/promises';

export async function writeCsvBeside(target: string, chunks: Iterable<string>): Promise<void> {
  const part = `${target}.${process.pid}-${randomBytes(12).toString('hex')}.part`;
  try {
    const handle = await open(part, 'wx', 0o644);
    try {
      // Iterated chunk by chunk, each written before the next page is read.
      await handle.writeFile(chunks);
      await handle.sync();
    } finally {
      await handle.close();
    }
    await rename(part, target);
  } catch (error) {
    await rm(part, { force: true }).catch(() => undefined);
    throw error;
  }
}
