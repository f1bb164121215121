/**
 * The SDK's stdio transport, writing each answer with the write's own callback. The SDK's waits for
 * a full stdout by adding a `drain` listener per answer: with answers the client does not read
 * (the call gate lets up to 16 MB of them wait, mcp-call-gate.ts), that was a listener per answer,
 * tens of thousands of closures on the stream and Node's MaxListenersExceededWarning on stderr.
 * The promise settles as the SDK's does: at once when the stream took the answer under its mark,
 * else once it was written (or failed: a closed reader, whose EPIPE the CLI hears, cli/main.ts).
 */
import type { Readable, Writable } from 'node:stream';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export class StdioAnswerTransport extends StdioServerTransport {
  constructor(
    stdin: Readable,
    private readonly answers: Writable,
  ) {
    super(stdin, answers);
  }

  override send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.answers.write(serializeMessage(message), () => resolve())) resolve();
    });
  }
}
