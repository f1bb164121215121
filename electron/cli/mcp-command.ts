/**
 * `pictor mcp`: an MCP server over stdio (the Model Context Protocol's official SDK) on the same
 * core and library as the app and the other commands, beside them (the engine's leases): an
 * agent generates, follows, resumes and cancels tasks, and searches, reads and triages the
 * library. The key stays in the environment, out of every answer; caps and prices are the
 * user's (read, never changed here).
 */
import { declareCommand } from './command-declaration';
import { commandHelp } from './command-help';
import { runOnService } from './commands';
import { MAX_SPEND_ENV, MCP_OPTIONS, parseMcp, type McpCommand } from './mcp-args';

async function runMcp(command: McpCommand, io: Parameters<typeof runOnService>[1]) {
  // The SDK is loaded only when the server runs: `pictor --version` and the other commands never load it.
  const { createMcpServer, serveOverStdio } = await import('./mcp/mcp-server');
  const key = io.env.SERVICE_API_KEY?.trim() || null;
  return runOnService(command, io, async ({ core }) => {
    core.engine.start({ resume: false });
    const server = createMcpServer({
      core,
      target: command.target,
      maxSpendMicros: command.maxSpendMicros,
      key,
      version: io.version ?? 'unknown',
    });
    io.stderr('Pictor MCP server ready on stdio.\n');
    await serveOverStdio(server, key, io.interrupt);
    return 0;
  });
}

export const mcp = declareCommand({
  help: commandHelp(
    `mcp [--provider ID] [--base-url URL] [--max-spend USD]
                                  serve Pictor's tools to an AI agent over the Model Context
                                  Protocol (stdio): generate (a prompt or a template, with the
                                  model's own options and a seed), task_status, resume, cancel,
                                  list_tasks, list_images, get_image, rate, flag, tag,
                                  add_to_board. An MCP
                                  client starts it; in its configuration:
                                    {"mcpServers": {"pictor": {"command": "pictor",
                                      "args": ["mcp", "--provider", "demo"]}}}
                                  Submits go to the service named here (SERVICE_API_KEY in the
                                  server's env; --provider demo needs none) and pass your spending
                                  caps; --max-spend USD (or ${MAX_SPEND_ENV}) also limits
                                  what one connection may spend. Keys never appear in an answer;
                                  the agent cannot change keys, caps or prices, nor name a path
                                  or an address`,
    ['service', 'library', 'watch', 'verbose'],
  ),
  options: MCP_OPTIONS,
  parse: parseMcp,
  run: runMcp,
});
