/**
 * The download's own temp file: the body as it came, created (never through an existing name)
 * by its first write, so a body that is saved through its edited copy alone never has one.
 */
import { open, type FileHandle } from 'node:fs/promises';
import { GALLERY_FILE_MODE } from '../fs';
import { writeAll } from './write-buffers';

/** How much of a file {@link BodyFile.copyFrom} reads at a time. */
const COPY_WINDOW = 256 * 1024;

export class BodyFile {
  private handle: FileHandle | null = null;
  private created = false;

  constructor(readonly path: string) {}

  /** Whether the file was created (by a write). */
  get made(): boolean {
    return this.created;
  }

  /** Appends `bytes`; the first write creates the file ('wx'). Rejects: the disk failed. */
  async write(bytes: Uint8Array): Promise<void> {
    if (!this.handle) {
      this.handle = await open(this.path, 'wx', GALLERY_FILE_MODE);
      this.created = true;
    }
    await writeAll(this.handle, bytes);
  }

  /** Appends `source`'s bytes from `from` to `to`, a window at a time. */
  async copyFrom(source: FileHandle, from: number, to: number): Promise<void> {
    const window = Buffer.allocUnsafe(Math.min(COPY_WINDOW, Math.max(to - from, 1)));
    for (let at = from; at < to;) {
      const { bytesRead } = await source.read(window, 0, Math.min(window.length, to - at), at);
      if (bytesRead <= 0) throw new Error('The file shrank while it was copied.');
      await this.write(window.subarray(0, bytesRead));
      at += bytesRead;
    }
  }

  /** Closes the file (it stays on disk). Never rejects. */
  async close(): Promise<void> {
    const handle = this.handle;
    this.handle = null;
    await handle?.close().catch(() => undefined);
  }
}
