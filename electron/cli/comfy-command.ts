/**
 * `pictor comfy import FILE --name NAME --prompt NODE.INPUT [--negative …] [--seed …] [--width …]
 * [--height …] [--steps …] [--image …] [--data-dir DIR] [--json]`: a ComfyUI workflow exported with
 * "Export (API)" kept as a model of the ComfyUI provider, its inputs mapped once (which node input
 * takes the prompt, the negative prompt, the seed, the size, the steps, an input image). The file
 * is read as hostile (a regular file, bounded, shared/domain/comfy-workflow.ts's limits); nothing
 * is sent. Then `pictor generate --provider comfyui --model NAME "…"` runs it.
 */
import { resolve } from 'node:path';
import { mappedWorkflow } from '../../shared/domain/comfy-prompt';
import {
  MAX_WORKFLOW_BYTES,
  WORKFLOW_ROLES,
  type WorkflowMap,
} from '../../shared/domain/comfy-workflow';
import { UsageError, parseCommandLine } from '../core/command-line';
import { workflowNameProblem, workflowNameRefusal } from '../../shared/domain/workflow-name';
import { readWorkflowFile, saveMappedWorkflow } from '../core/workflows';
import { EXIT } from './cli-report';
import type { CliIo } from './cli-io';
import { declareCommand } from './command-declaration';
import { commandHelp } from './command-help';
import { common, type CommonOptions } from './common-args';
import { runOnService } from './commands';
import { terminalSafe } from './terminal-text';

const COMFY_OPTIONS = {
  name: { type: 'string' },
  ...Object.fromEntries(WORKFLOW_ROLES.map((role) => [role, { type: 'string' }])),
  'data-dir': { type: 'string' },
  'gallery-dir': { type: 'string' },
  json: { type: 'boolean' },
} as const satisfies Record<string, { type: 'string' | 'boolean' }>;

interface ComfyImport {
  readonly name: 'comfy';
  readonly file: string;
  readonly model: string;
  readonly map: Readonly<Record<string, string>>;
  readonly common: CommonOptions;
  readonly json: boolean;
}

function parseComfy(argv: readonly string[], env: NodeJS.ProcessEnv): ComfyImport {
  const { values, positionals } = parseCommandLine(argv, COMFY_OPTIONS, true);
  const typed = values as Record<string, string | boolean | undefined>;
  const [verb, file, ...rest] = positionals;
  if (verb !== 'import' || file === undefined || rest.length > 0)
    throw new UsageError(
      'comfy takes import FILE and its options (pictor comfy import workflow.json --name portrait --prompt 6.text).',
    );
  const model = typeof typed['name'] === 'string' ? typed['name'] : '';
  if (model === '')
    throw new UsageError(`comfy import needs --name. ${workflowNameRefusal('form')}`);
  const problem = workflowNameProblem(model);
  if (problem) throw new UsageError(`comfy import --name: ${workflowNameRefusal(problem)}`);
  const map = Object.fromEntries(
    WORKFLOW_ROLES.flatMap((role) =>
      typeof typed[role] === 'string' ? [[role, typed[role]]] : [],
    ),
  );
  if (map['prompt'] === undefined)
    throw new UsageError(
      'comfy import needs --prompt NODE.INPUT: the input that takes the prompt (6.text).',
    );
  const options = common(
    {
      'data-dir': typed['data-dir'] as string | undefined,
      'gallery-dir': typed['gallery-dir'] as string | undefined,
    },
    env,
  );
  return {
    name: 'comfy',
    file: resolve(file),
    model,
    map,
    common: options,
    json: typed['json'] === true,
  };
}

async function importWorkflow(command: ComfyImport, io: CliIo): Promise<number> {
  // The window's import reads and checks a file the same way (ipc/workflow-handlers.ts).
  const read = await readWorkflowFile(command.file);
  if (!read.ok) {
    io.stderr(
      'unreadable' in read
        ? `The workflow file could not be read, or is larger than ${MAX_WORKFLOW_BYTES} bytes.\n`
        : `${terminalSafe(read.problem)}\n`,
    );
    return EXIT.failed;
  }
  const mapped = mappedWorkflow(read.graph, command.map as WorkflowMap);
  if (!mapped.ok) {
    io.stderr(`${terminalSafe(mapped.problem)}\n`);
    return EXIT.failed;
  }
  // The library's own book of workflows, as the core keeps it (the engine reads it at submit).
  // It may keep it under another spelling of the name, the one it had (workflow-book.ts).
  let model = command.model;
  await runOnService(
    command,
    io,
    async ({ core }) => {
      const saved = await saveMappedWorkflow(
        core.workflows,
        model,
        read.graph,
        mapped.workflow.map,
      );
      if (saved.ok) model = saved.name;
      return EXIT.ok;
    },
    { needsKey: false },
  );
  const nodes = Object.keys(mapped.workflow.graph).length;
  if (command.json) io.stdout(`${JSON.stringify({ model, nodes, map: mapped.workflow.map })}\n`);
  else {
    const roles = Object.entries(mapped.workflow.map).map(([role, path]) => `${role} → ${path}`);
    io.stdout(
      `${terminalSafe(`Imported ${model} (${nodes} nodes): ${roles.join(', ')}.`)}\n` +
        `Run it with: pictor generate --provider comfyui --model ${model} "…"\n`,
    );
  }
  return EXIT.ok;
}

export const comfy = declareCommand({
  options: COMFY_OPTIONS,
  help: commandHelp(
    `comfy import FILE --name NAME --prompt NODE.INPUT [--negative NODE.INPUT] [--seed NODE.INPUT]
        [--width NODE.INPUT] [--height NODE.INPUT] [--steps NODE.INPUT] [--image NODE.INPUT]
                                  keeps a ComfyUI workflow saved with "Export (API)" as the
                                  model NAME of the comfyui provider, each input of the request
                                  going to the node input named (6.text: node 6's text); nothing
                                  is sent`,
    ['library', 'json'],
  ),
  parse: parseComfy,
  run: importWorkflow,
});
