/**
 * The demo ComfyUI's reading of a submitted graph (`POST /prompt`'s `prompt`), as ComfyUI checks
 * one before queueing it: every node's class must exist (400 `invalid_prompt`), there must be an
 * output node (400 `prompt_no_outputs`), a LoadImage must name an uploaded file (400
 * `prompt_outputs_failed_validation` with the node's errors). What it draws: the positive prompt
 * (the text of the CLIPTextEncode the KSampler's `positive` links to, or the first one with text),
 * the EmptyLatentImage's size and batch.
 */
import { workflowGraphSchema, type WorkflowGraph } from '../../../shared/domain/comfy-workflow';
import type { Reply } from '../http-reply';
import { jsonReply } from '../http-reply';

/** The node classes the demo "has installed". */
const KNOWN_CLASSES = new Set([
  'CheckpointLoaderSimple',
  'CLIPTextEncode',
  'EmptyLatentImage',
  'KSampler',
  'VAEDecode',
  'VAEEncode',
  'LoadImage',
  'SaveImage',
  'PreviewImage',
]);
const OUTPUT_CLASSES = new Set(['SaveImage', 'PreviewImage']);
const MAX_BATCH = 4;

/** What the demo makes of a graph it accepted. */
export interface ComfyPlan {
  readonly graph: WorkflowGraph;
  readonly prompt: string;
  readonly width: number;
  readonly height: number;
  readonly batch: number;
  /** The node that saves (its id names the outputs in the history). */
  readonly outputNode: string;
  /** The node a failure is said of: the sampler. */
  readonly workNode: { readonly id: string; readonly type: string };
}

function invalid(type: string, message: string, nodeErrors: unknown = {}, details = ''): Reply {
  return jsonReply(400, {
    error: { type, message, details, extra_info: {} },
    node_errors: nodeErrors,
  });
}

function firstOf(graph: WorkflowGraph, classType: string): string | undefined {
  return Object.keys(graph).find((id) => graph[id]?.class_type === classType);
}

function promptOf(graph: WorkflowGraph): string {
  const sampler = graph[firstOf(graph, 'KSampler') ?? ''];
  const positive = sampler?.inputs['positive'];
  const linked = Array.isArray(positive) ? graph[String(positive[0])]?.inputs['text'] : undefined;
  if (typeof linked === 'string' && linked.trim() !== '') return linked;
  const first = Object.values(graph).find(
    (node) => node.class_type === 'CLIPTextEncode' && typeof node.inputs['text'] === 'string',
  );
  return typeof first?.inputs['text'] === 'string' ? first.inputs['text'] : '';
}

function whole(value: unknown, fallback: number): number {
  return typeof value === 'number' && Number.isInteger(value) ? value : fallback;
}

/** The graph checked as ComfyUI checks it, or its 400; `uploaded` names the input files. */
export function planOf(prompt: unknown, uploaded: (name: string) => boolean): ComfyPlan | Reply {
  const parsed = workflowGraphSchema().safeParse(prompt);
  if (!parsed.success)
    return invalid('invalid_prompt', 'Cannot execute because the prompt is not a valid graph.');
  const graph = parsed.data;
  for (const [id, node] of Object.entries(graph)) {
    if (!KNOWN_CLASSES.has(node.class_type))
      return invalid(
        'invalid_prompt',
        `Cannot execute because node ${node.class_type} does not exist.`,
        {},
        `Node ID '#${id}'`,
      );
    const image = node.inputs['image'];
    if (node.class_type === 'LoadImage' && (typeof image !== 'string' || !uploaded(image)))
      return invalid('prompt_outputs_failed_validation', 'Prompt outputs failed validation', {
        [id]: {
          errors: [
            {
              type: 'custom_validation_failed',
              message: 'Invalid image file',
              details: `image - Invalid image file: ${String(image)}`,
              extra_info: {},
            },
          ],
          dependent_outputs: [],
          class_type: 'LoadImage',
        },
      });
  }
  const outputNode = Object.keys(graph).find((id) =>
    OUTPUT_CLASSES.has(graph[id]?.class_type ?? ''),
  );
  if (outputNode === undefined) return invalid('prompt_no_outputs', 'Prompt has no outputs');
  const latent = graph[firstOf(graph, 'EmptyLatentImage') ?? '']?.inputs ?? {};
  const batch = whole(latent['batch_size'], 1);
  const sampler = firstOf(graph, 'KSampler');
  return {
    graph,
    prompt: promptOf(graph),
    width: whole(latent['width'], 512),
    height: whole(latent['height'], 512),
    batch: Math.min(MAX_BATCH, Math.max(1, batch)),
    outputNode,
    workNode: {
      id: sampler ?? outputNode,
      type: sampler ? 'KSampler' : (graph[outputNode]?.class_type ?? 'SaveImage'),
    },
  };
}
