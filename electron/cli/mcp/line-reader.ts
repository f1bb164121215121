/**
 * The lines of a byte stream, each byte looked at and copied once: what `pictor mcp` reads its
 * client's calls with (mcp-stdio-transport.ts). The SDK's ReadBuffer joined its whole buffer with
 * each chunk that came (Buffer.concat) and searched it again from its start for a newline, so a
 * line of n bytes arriving in pipe-sized chunks cost time in n² (measured: 2.55 s of CPU to frame
 * one 10 MB line). Here the chunks of an unended line are kept as they came, each searched once
 * when it arrives, and joined once, when the line ends.
 *
 * Its rules are the SDK's: a line ends at `\n`, one `\r` before it is dropped, and the bytes held
 * and not yet read as lines may not pass `maxBytes` (the SDK's 10 MB by default): past it, what is
 * held is dropped and `append` throws the SDK's own words.
 */
import { STDIO_DEFAULT_MAX_BUFFER_SIZE } from '@modelcontextprotocol/sdk/shared/stdio.js';

const NEWLINE = 0x0a;

export class LineReader {
  /** The bytes held, in order: the unread lines' and the unended one's. */
  private chunks: Buffer[] = [];
  /** How many bytes `chunks` holds in all. */
  private held = 0;
  /**
   * The first chunk (an index into `chunks`) not yet searched for a newline: every chunk before
   * it, from the start of the unended line, holds none.
   */
  private searched = 0;

  constructor(private readonly maxBytes: number = STDIO_DEFAULT_MAX_BUFFER_SIZE) {}

  /** Takes the next bytes of the stream; throws, holding nothing, when they would pass the limit. */
  append(chunk: Buffer): void {
    if (this.held + chunk.length > this.maxBytes) {
      this.clear();
      throw new Error(`ReadBuffer exceeded maximum size of ${String(this.maxBytes)} bytes`);
    }
    if (chunk.length === 0) return;
    this.chunks.push(chunk);
    this.held += chunk.length;
  }

  /** The next whole line (without its `\n`, nor one `\r` before it), or null while none has ended. */
  next(): string | null {
    for (; this.searched < this.chunks.length; this.searched += 1) {
      const end = this.chunks[this.searched]?.indexOf(NEWLINE) ?? -1;
      if (end !== -1) return this.take(this.searched, end);
    }
    return null;
  }

  /** Drops every byte held. */
  clear(): void {
    this.chunks = [];
    this.held = 0;
    this.searched = 0;
  }

  /** Reads the line that ends at byte `end` of chunk `last` and keeps what follows it. */
  private take(last: number, end: number): string {
    const ending = this.chunks[last] ?? Buffer.alloc(0);
    const head = ending.subarray(0, end);
    const line = last === 0 ? head : Buffer.concat([...this.chunks.slice(0, last), head]);
    const after = ending.subarray(end + 1);
    const rest = this.chunks.slice(last + 1);
    this.chunks = after.length > 0 ? [after, ...rest] : rest;
    this.held -= line.length + 1;
    this.searched = 0;
    const text = line.toString('utf8');
    return text.endsWith('\r') ? text.slice(0, -1) : text;
  }
}
