/**
 * `pictor mcp` as an agent's host starts the installed command: the invocation installed-app.ts
 * builds (cmd.exe's verbatim line for pictor.cmd on Windows, which the SDK's own stdio transport
 * cannot start), its stdin and stdout carried by a small transport here, and the SDK's own Client
 * on it: the tools are listed, one prompt is generated on the built-in demo and waited for, and
 * the server ends when its stdin closes. What only the installed app can show: the command's
 * stdio reaches Electron's Node as a pipe, unbuffered and unchanged, on every OS.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { ReadBuffer, serializeMessage } from '@modelcontextprotocol/sdk/shared/stdio.js';
import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { CallToolResult, JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import type { Invocation } from './installed-app';

/** The tools every build's server must list. */
export const INSTALLED_MCP_TOOLS = ['generate', 'compare', 'list_tasks', 'get_image'] as const;

/** An MCP transport over a started child's stdin and stdout (stderr kept for the verdict). */
class ChildTransport implements Transport {
  onmessage?: (message: JSONRPCMessage) => void;
  onerror?: (error: Error) => void;
  onclose?: () => void;
  readonly stderr: string[] = [];
  private readonly buffer = new ReadBuffer();
  private child: ChildProcess | null = null;

  constructor(
    private readonly invocation: Invocation,
    private readonly env: NodeJS.ProcessEnv,
  ) {}

  start(): Promise<void> {
    const { file, args, options } = this.invocation;
    const child = spawn(file, args, { ...options, env: this.env, stdio: 'pipe' });
    this.child = child;
    child.stdout.on('data', (chunk: Buffer) => {
      this.buffer.append(chunk);
      try {
        for (let message = this.buffer.readMessage(); message; message = this.buffer.readMessage())
          this.onmessage?.(message);
      } catch (error) {
        // A line that is not a JSON-RPC message: no MCP server wrote it.
        this.buffer.clear();
        this.stderr.push(`(stdout) ${chunk.toString('utf8').slice(0, 500)}`);
        this.onerror?.(error instanceof Error ? error : new Error(String(error)));
      }
    });
    child.stderr.on('data', (chunk: Buffer) => this.stderr.push(chunk.toString('utf8')));
    child.on('error', (error) => this.onerror?.(error));
    child.on('close', () => this.onclose?.());
    return new Promise((resolve, reject) => {
      child.once('spawn', () => resolve());
      child.once('error', reject);
    });
  }

  send(message: JSONRPCMessage): Promise<void> {
    return new Promise((resolve) => {
      if (this.child?.stdin?.write(serializeMessage(message))) resolve();
      else this.child?.stdin?.once('drain', resolve);
    });
  }

  /** Closes stdin (the server's signal to end), then waits for the process to end. */
  async close(): Promise<void> {
    const child = this.child;
    if (child === null || child.exitCode !== null) return;
    const ended = new Promise((resolve) => child.once('close', resolve));
    child.stdin?.end();
    const timer = setTimeout(() => child.kill(), 20_000);
    await ended;
    clearTimeout(timer);
  }

  get exitCode(): number | null {
    return this.child?.exitCode ?? null;
  }
}

export type McpVerdict =
  { readonly ok: true; readonly line: string } | { readonly ok: false; readonly problem: string };

function generated(result: CallToolResult): string | null {
  const text = result.content.find((part) => part.type === 'text');
  if (result.isError || text?.type !== 'text') return null;
  const answer = JSON.parse(text.text) as { tasks?: { status?: string; images?: unknown[] }[] };
  const task = answer.tasks?.[0];
  return task?.status === 'completed' && (task.images?.length ?? 0) > 0 ? 'completed' : null;
}

/**
 * Drives `invocation` (a `pictor mcp --provider demo …` line) with the SDK's client.
 * @returns the verdict; its problem carries what the server said on stderr.
 */
export async function checkMcp(
  invocation: Invocation,
  env: NodeJS.ProcessEnv,
): Promise<McpVerdict> {
  const transport = new ChildTransport(invocation, env);
  const client = new Client({ name: 'pictor-ci', version: '1.0.0' });
  const failed = (problem: string): McpVerdict => ({
    ok: false,
    problem: `${problem}\n${transport.stderr.join('').slice(-2_000)}`,
  });
  try {
    await client.connect(transport, { timeout: 60_000 });
    const names = (await client.listTools()).tools.map((tool) => tool.name);
    const missing = INSTALLED_MCP_TOOLS.filter((name) => !names.includes(name));
    if (missing.length > 0) return failed(`pictor mcp lists no ${missing.join(', ')}`);
    const result = (await client.callTool(
      { name: 'generate', arguments: { prompt: 'a lighthouse at dusk', wait: true } },
      undefined,
      { timeout: 120_000 },
    )) as CallToolResult;
    if (generated(result) === null)
      return failed(`generate did not complete: ${JSON.stringify(result).slice(0, 800)}`);
    await client.close();
    await transport.close();
    if (transport.exitCode !== 0)
      return failed(`pictor mcp exited ${String(transport.exitCode)} when its stdin closed`);
    return { ok: true, line: `pictor mcp lists ${names.length} tools and generated on the demo` };
  } catch (error) {
    return failed(`pictor mcp: ${error instanceof Error ? error.message : String(error)}`);
  } finally {
    await transport.close();
  }
}
