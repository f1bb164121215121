/**
 * `list_tasks`: the library's tasks, newest first, a page at a time, with the task list's filters
 * (search words, statuses, service, compare group, template): the window's Tasks screen asks the
 * history the same query over IPC, with the same schema. Each task as task_status says it.
 */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { requests } from '../../../shared/ipc/contract';
import type { PictorCore } from '../../core/pictor-core';
import { taskFacts } from './mcp-facts';
import { fittingPage, guarded } from './mcp-tool-kit';

/** The IPC's own filter of the task list; an agent's page is at most 50 tasks. */
const listTasksInput = requests['tasks:list'].input.extend({
  limit: z.number().int().min(1).max(50).optional(),
});

function listTasks(
  core: PictorCore,
  keys: readonly string[],
  input: z.infer<typeof listTasksInput>,
) {
  return fittingPage(input.limit ?? 20, (limit) => {
    const page = core.history.list({ ...input, limit });
    return {
      tasks: page.items.map((record) => taskFacts(core.engine.get(record.localId) ?? record, keys)),
      nextCursor: page.nextCursor,
    };
  });
}

/** list_tasks on `server` (`keys`: the server's, which no image reference carries). */
export function registerTaskList(
  server: McpServer,
  core: PictorCore,
  keys: readonly string[],
): void {
  server.registerTool(
    'list_tasks',
    {
      description:
        "List the library's tasks, newest first (20 a page, nextCursor for the next): their status, images (task-id#N), seed and cost. Filters: search words in the prompt (any order), statuses, favourite, provider (the service's id), compareGroup, template (its id).",
      inputSchema: listTasksInput,
    },
    (input) => guarded(() => listTasks(core, keys, input)),
  );
}
