/**
 * From a workflow file's text to a checked workflow (comfy-workflow.ts), and from a workflow and a
 * request's values to the graph a ComfyUI `POST /prompt` sends. The built-in model,
 * `text-to-image`, is ComfyUI's own default graph (a checkpoint, two prompts, an empty latent, a
 * KSampler, a decode and a save), mapped.
 */
import {
  MAX_WORKFLOW_BYTES,
  comfyWorkflowSchema,
  splitPath,
  workflowGraphSchema,
  WORKFLOW_ROLES,
  type ComfyWorkflow,
  type WorkflowGraph,
  type WorkflowMap,
  type WorkflowRole,
} from './comfy-workflow';
import { cleanName } from '../text/shown-name';

/** The model that needs no import: ComfyUI's default graph. */
export const DEFAULT_WORKFLOW_MODEL = 'text-to-image';

export type WorkflowReading =
  | { readonly ok: true; readonly graph: WorkflowGraph }
  | { readonly ok: false; readonly problem: string };

/**
 * `text` (a file the user picked) as a workflow graph in the API format, or why not, as a
 * sentence. The size is checked before anything is parsed.
 */
export function readWorkflowText(text: string): WorkflowReading {
  if (
    text.length > MAX_WORKFLOW_BYTES ||
    new TextEncoder().encode(text).length > MAX_WORKFLOW_BYTES
  )
    return { ok: false, problem: `The workflow is larger than ${MAX_WORKFLOW_BYTES} bytes.` };
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return { ok: false, problem: 'The workflow file is not JSON.' };
  }
  if (typeof json === 'object' && json !== null && 'nodes' in json && 'links' in json)
    return {
      ok: false,
      problem:
        'This is the workflow as the ComfyUI editor saves it: export it with "Export (API)" and import that file.',
    };
  const parsed = workflowGraphSchema().safeParse(json);
  if (parsed.success) return { ok: true, graph: parsed.data };
  const issue = parsed.error.issues[0];
  const path = (issue?.path ?? []).map((part) => shownPart(String(part)));
  const where = path.length > 0 ? ` (at ${path.slice(0, 6).join('.')})` : '';
  const why = cleanName(issue?.message, MAX_SHOWN_WHY) ?? 'unreadable';
  return {
    ok: false,
    problem: `The workflow is not one ComfyUI's API format allows${where}: ${why}.`,
  };
}

/** Longest part of a place in the file named in a refusal, and longest reason. */
const MAX_SHOWN_PART = 40;
const MAX_SHOWN_WHY = 200;

/**
 * A key of the file as a refusal names it: the file's own text (a node id of 400,000 characters,
 * ESC sequences, a bidi override), so cleaned of what steers or reorders text and cut short.
 */
function shownPart(part: string): string {
  const clean = cleanName(part, MAX_SHOWN_PART + 1) ?? '?';
  return clean.length > MAX_SHOWN_PART ? `${clean.slice(0, MAX_SHOWN_PART)}…` : clean;
}

/** `graph` with `map`, checked together, or why not. */
export function mappedWorkflow(
  graph: WorkflowGraph,
  map: WorkflowMap,
): { ok: true; workflow: ComfyWorkflow } | { ok: false; problem: string } {
  const unknown = Object.keys(map).find(
    (role) => !(WORKFLOW_ROLES as readonly string[]).includes(role),
  );
  if (unknown !== undefined) {
    return {
      ok: false,
      problem: `Pictor maps no role named ${unknown.slice(0, 40)}: use ${WORKFLOW_ROLES.join(', ')}.`,
    };
  }
  const parsed = comfyWorkflowSchema().safeParse({ graph, map });
  if (parsed.success) return { ok: true, workflow: parsed.data };
  return { ok: false, problem: parsed.error.issues[0]?.message ?? 'The map does not fit.' };
}

/** The values a submit puts into a workflow's mapped inputs. */
export type WorkflowValues = Partial<Record<WorkflowRole, string | number>>;

/** The graph to send: `workflow`'s own, each mapped input given its value (unmapped ones ignored). */
export function promptGraph(workflow: ComfyWorkflow, values: WorkflowValues): WorkflowGraph {
  const graph = structuredClone(workflow.graph);
  for (const [role, value] of Object.entries(values) as [WorkflowRole, string | number][]) {
    const path = workflow.map[role];
    if (path === undefined || value === undefined) continue;
    const { node, input } = splitPath(path);
    const target = graph[node];
    if (target) target.inputs[input] = value;
  }
  return graph;
}

/** ComfyUI's default graph, exported with "Export (API)". */
const DEFAULT_GRAPH: WorkflowGraph = {
  '3': {
    class_type: 'KSampler',
    inputs: {
      seed: 0,
      steps: 20,
      cfg: 8,
      sampler_name: 'euler',
      scheduler: 'normal',
      denoise: 1,
      model: ['4', 0],
      positive: ['6', 0],
      negative: ['7', 0],
      latent_image: ['5', 0],
    },
  },
  '4': {
    class_type: 'CheckpointLoaderSimple',
    inputs: { ckpt_name: 'v1-5-pruned-emaonly.safetensors' },
  },
  '5': { class_type: 'EmptyLatentImage', inputs: { width: 512, height: 512, batch_size: 1 } },
  '6': { class_type: 'CLIPTextEncode', inputs: { text: '', clip: ['4', 1] } },
  '7': { class_type: 'CLIPTextEncode', inputs: { text: '', clip: ['4', 1] } },
  '8': { class_type: 'VAEDecode', inputs: { samples: ['3', 0], vae: ['4', 2] } },
  '9': { class_type: 'SaveImage', inputs: { filename_prefix: 'Pictor', images: ['8', 0] } },
};

export const DEFAULT_WORKFLOW: ComfyWorkflow = {
  graph: DEFAULT_GRAPH,
  map: {
    prompt: '6.text',
    negative: '7.text',
    seed: '3.seed',
    steps: '3.steps',
    width: '5.width',
    height: '5.height',
  },
};
