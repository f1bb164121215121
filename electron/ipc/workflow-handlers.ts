/**
 * IPC handlers of the `workflows:` channels (shared/ipc/workflow-contract.ts): the ComfyUI
 * workflows kept as models. An import reads the file main's own open dialog returns through
 * core/workflows (`readWorkflowFile`, as `pictor comfy import` does), holds its checked graph under
 * a token and shows the page its inputs; a save maps and keeps that graph (`saveMappedWorkflow`).
 * The page never names a path; a refusal is the check's own sentence. Translations to core only.
 */
import { randomUUID } from 'node:crypto';
import { basename, extname } from 'node:path';
import { MAX_WORKFLOW_BYTES, type WorkflowGraph } from '../../shared/domain/comfy-workflow';
import { sentence } from '../../shared/i18n/sentence';
import { isWorkflowName } from '../../shared/domain/workflow-name';
import { cleanName } from '../../shared/text/shown-name';
import {
  MAX_SHOWN_VALUE_CHARS,
  type ShownWorkflowNode,
  type workflowRequests,
} from '../../shared/ipc/workflow-contract';
import { UserFacingError } from '../core/errors';
import { readWorkflowFile, saveMappedWorkflow, type WorkflowBook } from '../core/workflows';
import type { LibraryDialogs } from '../ports/library-dialogs';
import type { IpcHandlers } from './ipc-main-bridge';

type WorkflowChannel = keyof typeof workflowRequests;

/** Longest class and title shown (the workflow's schema allows no longer). */
const MAX_CLASS_CHARS = 128;
const MAX_TITLE_CHARS = 256;

/** Picked graphs held for a save (the newest few: a page that picks again and again holds no more). */
const MAX_HELD = 4;

export interface WorkflowHandlerDeps {
  readonly workflows: WorkflowBook;
  /** Main's own open dialog; absent where the host has none (an import says so). */
  readonly dialogs?: Pick<LibraryDialogs, 'chooseWorkflowFile'>;
}

/**
 * A node's inputs a role may take (text or a number; links and the rest are not mapped). Its class,
 * title and text values are the file's own text, shown in the mapping's labels: cleaned as every
 * name from a file is (shown-name.ts: nothing that steers, hides or reorders them, cut at a whole
 * character). The graph kept and sent is the file's, unchanged.
 */
function shownNodes(graph: WorkflowGraph): ShownWorkflowNode[] {
  return Object.entries(graph).map(([id, node]) => {
    const title = cleanName(node._meta?.title, MAX_TITLE_CHARS);
    return {
      id,
      classType: cleanName(node.class_type, MAX_CLASS_CHARS) ?? '?',
      ...(title === undefined ? {} : { title }),
      inputs: shownInputs(node.inputs),
    };
  });
}

function shownInputs(inputs: WorkflowGraph[string]['inputs']): ShownWorkflowNode['inputs'] {
  return Object.entries(inputs).flatMap(([name, value]): ShownWorkflowNode['inputs'] => {
    if (typeof value === 'string')
      return [{ name, kind: 'text', value: cleanName(value, MAX_SHOWN_VALUE_CHARS) ?? '' }];
    if (typeof value === 'number') return [{ name, kind: 'number', value }];
    return [];
  });
}

/** The file's name as a workflow's name, or '' (the page asks for one). */
function suggestedName(path: string): string {
  const stem = basename(path, extname(path))
    .replace(/[^A-Za-z0-9._-]+/g, '-')
    .replace(/^[^A-Za-z0-9]+/, '')
    .slice(0, 64)
    .replace(/[.-]+$/, '');
  return isWorkflowName(stem) ? stem : '';
}

function refused(problem: string): UserFacingError {
  return new UserFacingError(sentence('error.workflow.refused', { problem }), {
    code: 'bad_input',
  });
}

export function workflowHandlers(deps: WorkflowHandlerDeps): Pick<IpcHandlers, WorkflowChannel> {
  const held = new Map<string, WorkflowGraph>();
  return {
    'workflows:list': async () => ({
      workflows: (await deps.workflows.list()).map(({ name, workflow }) => ({
        name,
        map: { ...workflow.map },
      })),
    }),
    'workflows:pick': async () => {
      const choose = deps.dialogs?.chooseWorkflowFile;
      if (!choose)
        throw new UserFacingError(sentence('error.library.noDialogs'), { code: 'failed' });
      const path = await choose();
      if (!path) return { pick: null };
      const read = await readWorkflowFile(path);
      if (!read.ok) {
        if ('unreadable' in read)
          throw new UserFacingError(
            sentence('error.workflow.unreadable', { bytes: MAX_WORKFLOW_BYTES }),
          );
        throw refused(read.problem);
      }
      const token = randomUUID();
      held.set(token, read.graph);
      for (const old of held.keys()) if (held.size > MAX_HELD) held.delete(old);
      return { pick: { token, suggestedName: suggestedName(path), nodes: shownNodes(read.graph) } };
    },
    'workflows:save': async ({ token, name, map }) => {
      const graph = held.get(token);
      if (!graph)
        throw new UserFacingError(sentence('error.workflow.notHeld'), { code: 'not_found' });
      const saved = await saveMappedWorkflow(deps.workflows, name, graph, map);
      if (!saved.ok) throw refused(saved.problem);
      held.delete(token);
      // The name it is kept under: another spelling of `name` the book already had.
      return { name: saved.name };
    },
    'workflows:remove': async ({ name }) => ({ removed: await deps.workflows.remove(name) }),
  };
}
