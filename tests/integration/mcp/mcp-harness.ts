/**
 * `pictor mcp` as an MCP client starts it: the bundled CLI as a child process (run-cli.ts's
 * entry and environment), driven by the SDK's own Client over stdio. Every answer and everything
 * the server wrote on stderr is kept, so a test can search it all for the key.
 */
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StdioClientTransport } from '@modelcontextprotocol/sdk/client/stdio.js';
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import { afterEach, beforeEach, expect } from 'vitest';
import { carriesKey } from '../../../electron/core/secrets/key-echo';
import { startDemoService } from '../../../electron/demo-service/server';
import type { DemoService, DemoServiceOptions } from '../../../electron/demo-service/types';
import { nodeEntryArgs } from '../../support/node-entry-args';
import { REPO_ROOT, childEnv, newDataDir, runCliHere } from '../cli/run-cli';
import { removeFolder, tempFolder } from '../../support/temp-folders';

/** The server's arguments for the Pictor dialect at `url` (the demo's), polling every 0.1 s. */
export function onService(url: string, more: readonly string[] = []): string[] {
  return ['--provider', 'pictor', '--base-url', url, '--poll-interval', '0.1', ...more];
}

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

/** Each test's own library, home and demo service, and the servers it started. */
export interface McpLibrary {
  readonly dataDir: string;
  readonly home: string;
  /** Starts the demo service with the library's key as its account; closed after the test. */
  demo(options?: Omit<DemoServiceOptions, 'accounts'>): Promise<DemoService>;
  /** Starts `pictor mcp ARGS` on the library; `key: null` starts it with no key. */
  serve(
    args: readonly string[],
    options?: { readonly key?: string | null; readonly env?: Readonly<Record<string, string>> },
  ): Promise<McpSession>;
  /** `pictor ARGS` on the library (caps, prices and templates are the user's, set by the CLI). */
  pictor(args: readonly string[]): Promise<void>;
  /** The price of one image on the `pictor` service, US dollars (`pictor prices set`). */
  price(amount: string): Promise<void>;
}

/**
 * Registers the set-up every MCP test file shares: a fresh library and home per test, and after
 * it, every server closed, its words searched for the key, the demo closed and the folders gone.
 */
export function mcpLibrary(key: string, label: string): McpLibrary {
  let dataDir = '';
  let home = '';
  let service: DemoService | undefined;
  const sessions: McpSession[] = [];
  beforeEach(async () => {
    // Its history at today's schema already, as the CLI's worlds' (run-cli.ts's newDataDir).
    dataDir = await newDataDir(`${label}-data`);
    home = await tempFolder(`${label}-home`);
  });
  afterEach(async () => {
    for (const session of sessions.splice(0)) {
      expect(carriesKey(session.said(), key), 'the key in what the server said').toBe(false);
      await session.close().catch(() => undefined);
    }
    await service?.close();
    service = undefined;
    await removeFolder(dataDir);
    await removeFolder(home);
  });
  const library: McpLibrary = {
    get dataDir() {
      return dataDir;
    },
    get home() {
      return home;
    },
    demo: async (options = {}) => {
      service = await startDemoService({ ...options, accounts: [{ account: 'a', key }] });
      return service;
    },
    serve: async (args, options = {}) => {
      const given = options.key === undefined ? key : options.key;
      const session = await startMcp({
        dataDir,
        home,
        args,
        ...(given === null ? {} : { key: given }),
        ...(options.env ? { env: options.env } : {}),
      });
      sessions.push(session);
      return session;
    },
    pictor: async (args) => {
      const run = await runCliHere([...args, '--data-dir', dataDir], { key, home });
      expect(run.code, run.stderr).toBe(0);
    },
    price: (amount) =>
      library.pictor([
        'prices',
        'set',
        '--provider',
        'pictor',
        '--amount',
        amount,
        '--unit',
        'USD',
      ]),
  };
  return library;
}
