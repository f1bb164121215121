/**
 * The lines of a byte stream, each byte searched once and copied a bounded number of times: what
 * `pictor mcp` reads its client's calls with (mcp-stdio-transport.ts). The SDK's ReadBuffer joined
 * its whole buffer with each chunk that came (Buffer.concat) and searched it again from its start
 * for a newline, so a line of n bytes arriving in chunks of c bytes cost time in n²/c (measured:
 * 2.56 s of the bundled CLI's CPU for one 10 MiB call read from a file, 0.51 s of it its start;
 * 0.79 s with this reader).
 *
 * The bytes held sit in one buffer that doubles when it must grow, so however small the chunks
 * (a client writing a byte at a time) each byte is copied in once, and moved again at most about
 * twice on average: once as the buffer grows (doubling), once as the bytes already given out as
 * lines are dropped by moving what is left to the buffer's start, which is done only once they
 * are at least as many as what is left. One buffer of at most twice the limit is held, and one
 * of more than a mebibyte is let go of once it holds nothing. Only the bytes that came since the
 * last search are searched.
 *
 * Its rules are the SDK's: a line ends at `\n`, one `\r` before it is dropped, and the bytes held
 * and not yet read as lines may not pass `maxBytes` (the SDK's 10 MB by default): past it, what is
 * held is dropped and `append` throws the SDK's own words.
 */
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';

const NEWLINE = 0x0a;
/** The first buffer's size: a pipe's read. */
const FIRST_BYTES = 64 * 1024;
/** The largest buffer kept while it holds nothing. */
const KEPT_BYTES = 1024 * 1024;

export class LineReader {
  private bytes = Buffer.alloc(0);
  /** The first byte held (not given out yet). */
  private start = 0;
  /** One past the last byte held. */
  private end = 0;
  /** The bytes from `start` to here hold no newline. */
  private searched = 0;

  constructor(private readonly maxBytes: number = STDIO_DEFAULT_MAX_BUFFER_SIZE) {}

  /** Takes the next bytes; throws, holding nothing, when they would pass the limit. */
  append(chunk: Uint8Array): void {
    if (this.end - this.start + chunk.length > this.maxBytes) {
      this.clear();
      throw new Error(`ReadBuffer exceeded maximum size of ${String(this.maxBytes)} bytes`);
    }
    if (chunk.length === 0) return;
    if (this.end + chunk.length > this.bytes.length) this.makeRoom(chunk.length);
    this.bytes.set(chunk, this.end);
    this.end += chunk.length;
  }

  /** The next whole line (without its `\n`, nor one `\r` before it), or null while none ended. */
  next(): string | null {
    const found = this.bytes.subarray(this.searched, this.end).indexOf(NEWLINE);
    if (found === -1) {
      this.searched = this.end;
      return null;
    }
    const stop = this.searched + found;
    const text = this.bytes.toString('utf8', this.start, stop);
    this.start = stop + 1;
    this.searched = this.start;
    // Nothing held: the next bytes go to the buffer's start, or to a new one if it is large.
    if (this.start === this.end) {
      if (this.bytes.length > KEPT_BYTES) this.clear();
      else this.restart();
    }
    return text.endsWith('\r') ? text.slice(0, -1) : text;
  }

  /** Drops every byte held, and the buffer. */
  clear(): void {
    this.bytes = Buffer.alloc(0);
    this.restart();
  }

  /** Holds nothing: the next bytes go to the buffer's start. */
  private restart(): void {
    this.start = 0;
    this.end = 0;
    this.searched = 0;
  }

  /** Room for `more` bytes after those held, at the buffer's start or in one twice as large. */
  private makeRoom(more: number): void {
    const held = this.end - this.start;
    if (this.start >= held && held + more <= this.bytes.length) {
      this.bytes.copyWithin(0, this.start, this.end);
    } else {
      // Never past twice the limit: a buffer that large always has room once moved (held bytes
      // and the chunk are within the limit, so a full buffer has given out at least as many).
      const doubled = Math.min(2 * this.bytes.length, 2 * this.maxBytes);
      const grown = Buffer.allocUnsafe(Math.max(FIRST_BYTES, doubled, held + more));
      grown.set(this.bytes.subarray(this.start, this.end));
      this.bytes = grown;
    }
    this.searched -= this.start;
    this.start = 0;
    this.end = held;
  }
}
