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
import type { EnvCredentials } from './env-credentials';
import { McpCredentials } from './mcp-credentials';
import { environmentKeys } from './key-variables';
import {
  DEFAULT_MAX_TASKS,
  MAX_SPEND_ENV,
  MAX_TASKS_ENV,
  MCP_OPTIONS,
  parseMcp,
  type McpCommand,
} from './mcp-args';

async function runMcp(command: McpCommand, io: Parameters<typeof runOnService>[1]) {
  // The SDK is loaded only when the server runs: `pictor --version` and the other commands never load it.
  const { createMcpServer, serveOverStdio } = await import('./mcp/mcp-server');
  // Every key the server may hold: its service's, and each provider's a compare may use.
  const secrets = environmentKeys(io.env);
  let keys: McpCredentials | undefined;
  const widen = async (own: EnvCredentials) => (keys = await McpCredentials.create(io.env, own));
  return runOnService(
    command,
    io,
    async ({ core }, own) => {
      core.engine.start({ resume: false });
      const server = createMcpServer({
        core,
        credentials: keys ?? own,
        target: command.target,
        limits: { maxSpendMicros: command.maxSpendMicros, maxTasks: command.maxTasks },
        keys: secrets,
        version: io.version ?? 'unknown',
      });
      io.stderr('Pictor MCP server ready on stdio.\n');
      await serveOverStdio(server, secrets, io.interrupt);
      return 0;
    },
    { widen },
  );
}

export const mcp = declareCommand({
  help: commandHelp(
    `mcp [--provider ID] [--base-url URL] [--max-spend USD] [--max-tasks N]
                                  serve Pictor's tools to an AI agent over the Model Context
                                  Protocol (stdio): generate (a prompt or a template, with the
                                  model's own options and a seed), compare, task_status, resume,
                                  cancel, list_tasks, list_images, get_image, rate, flag, tag,
                                  add_to_board. An MCP
                                  client starts it; in its configuration:
                                    {"mcpServers": {"pictor": {"command": "pictor",
                                      "args": ["mcp", "--provider", "demo"]}}}
                                  Submits go to the service named here (SERVICE_API_KEY in the
                                  server's env; --provider demo needs none) and pass your spending
                                  caps; compare's other services use PICTOR_KEY_<PROVIDER>
                                  (as pictor compare), each at its own address; --max-spend USD (or ${MAX_SPEND_ENV}) also limits
                                  what one connection may spend, and --max-tasks N (or ${MAX_TASKS_ENV};
                                  ${String(DEFAULT_MAX_TASKS)} unless set) how many tasks it may send, free ones too: past
                                  either, a submit is refused and says which. Keys never appear in an answer;
                                  the agent cannot change keys, caps or prices, nor name a path
                                  or an address`,
    ['service', 'library', 'watch', 'verbose'],
  ),
  options: MCP_OPTIONS,
  parse: parseMcp,
  run: runMcp,
});
