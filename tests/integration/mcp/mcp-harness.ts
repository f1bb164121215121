/**
 * `pictor mcp` as an MCP client starts it: the bundled CLI as a child process (run-cli.ts's
 * entry and environment), driven by the SDK's own Client over stdio. Every answer and everything
 * the server wrote on stderr is kept, so a test can search it all for the key.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { nodeEntryArgs } from '../../support/node-entry-args';
import { REPO_ROOT, childEnv } from '../cli/run-cli';

/** One running server and its client. */
export interface McpSession {
  readonly client: Client;
  readonly pid: number;
  /** Calls a tool; a protocol error (an input the schema refused) is returned as its message. */
  call(name: string, args: Record<string, unknown>): Promise<CallToolResult | Error>;
  /** Every answer and stderr line so far, as text. */
  said(): string;
  close(): Promise<void>;
}

export interface McpStart {
  readonly dataDir: string;
  readonly home: string;
  /** After `mcp`: the service and options. */
  readonly args: readonly string[];
  readonly key?: string;
  readonly env?: Readonly<Record<string, string>>;
}

export async function startMcp(options: McpStart): Promise<McpSession> {
  const env = childEnv({
    home: options.home,
    key: options.key,
    ...(options.env ? { env: options.env } : {}),
  });
  const transport = new StdioClientTransport({
    command: process.execPath,
    args: [...nodeEntryArgs('cli'), 'mcp', ...options.args, '--data-dir', options.dataDir],
    env: env as Record<string, string>,
    cwd: REPO_ROOT,
    stderr: 'pipe',
  });
  const heard: string[] = [];
  transport.stderr?.on('data', (chunk: Buffer) => heard.push(chunk.toString('utf8')));
  const client = new Client({ name: 'pictor-test', version: '1.0.0' });
  await client.connect(transport);
  return {
    client,
    pid: transport.pid ?? 0,
    call: async (name, args) => {
      try {
        const result = (await client.callTool({ name, arguments: args }, undefined, {
          timeout: 60_000,
        })) as CallToolResult;
        heard.push(JSON.stringify(result));
        return result;
      } catch (error) {
        const failed = error instanceof Error ? error : new Error(String(error));
        heard.push(failed.message);
        return failed;
      }
    },
    said: () => heard.join('\n'),
    close: () => client.close(),
  };
}

/** The JSON a tool answered (its first text content). */
export function answerOf<T>(result: CallToolResult | Error): T {
  if (result instanceof Error) throw result;
  if (result.isError) throw new Error(`the tool refused: ${JSON.stringify(result.content)}`);
  const text = result.content.find((part) => part.type === 'text');
  if (text?.type !== 'text') throw new Error('the tool answered no text');
  return JSON.parse(text.text) as T;
}

/** What a refusal said: the tool error's text, or the protocol error's message. */
export function refusalOf(result: CallToolResult | Error): string {
  if (result instanceof Error) return result.message;
  if (!result.isError) throw new Error(`the tool did not refuse: ${JSON.stringify(result)}`);
  const text = result.content.find((part) => part.type === 'text');
  return text?.type === 'text' ? text.text : '';
}
