/**
 * A ComfyUI workflow in its API format (what ComfyUI's "Export (API)" writes: node id →
 * `{ class_type, inputs, _meta? }`, an input a value or a link `[node id, output index]`), and
 * the map of which node inputs take the request's prompt, negative prompt, seed, size, steps and
 * input image. A workflow is a file the user picked: hostile until checked. It is bounded by its
 * structure (text size, node count, inputs per node, nesting depth, every name's characters and
 * length), links must name nodes of the workflow, and `__proto__`-like names are refused.
 */
import { z } from 'zod';
import { lazySchema } from './lazy-schema';
import { cleanName } from '../text/shown-name';

/** Largest workflow file read, in bytes. */
export const MAX_WORKFLOW_BYTES = 512 * 1024;
/** Most nodes a workflow may have. */
export const MAX_WORKFLOW_NODES = 500;
/** Most inputs one node may have. */
const MAX_NODE_INPUTS = 100;
/** Deepest nesting of an input's value (a list in an object in a list…). */
const MAX_VALUE_DEPTH = 4;
/** Most entries, all levels counted, of one input's value. */
const MAX_VALUE_ENTRIES = 256;
/** Longest text input (a prompt box). */
const MAX_TEXT = 32_000;

/** ComfyUI's node ids: numbers, or `12:3` inside a group node. No dot: a map's path splits on it. */
const NODE_ID = /^[A-Za-z0-9_:-]{1,64}$/;
const INPUT_NAME = /^[A-Za-z0-9_ +-]{1,128}$/;
const RESERVED = new Set(['__proto__', 'constructor', 'prototype']);

/** The request's parts a workflow's inputs may take. */
export const WORKFLOW_ROLES = [
  'prompt',
  'negative',
  'seed',
  'width',
  'height',
  'steps',
  'image',
] as const;
export type WorkflowRole = (typeof WORKFLOW_ROLES)[number];

/** Roles whose input holds text (a prompt, a LoadImage file name); the others hold whole numbers. */
const TEXT_ROLES: ReadonlySet<WorkflowRole> = new Set(['prompt', 'negative', 'image']);

/** `node id` and `input name`: the graph's keys (a reserved name is refused). */
const graphKey = (pattern: RegExp) =>
  z
    .string()
    .regex(pattern)
    .refine((key) => !RESERVED.has(key));
const printable = (max: number) =>
  z
    .string()
    .min(1)
    .max(max)
    .regex(/^[^\p{Cc}]+$/u);

/**
 * One node of a graph, its inputs' values bounded by depth and entries (a link is a list of two).
 * This module's schemas are built on first use (lazy-schema.ts).
 */
const nodeSchema = lazySchema(() =>
  z.object({
    class_type: printable(128),
    inputs: z
      .record(
        graphKey(INPUT_NAME),
        z.unknown().superRefine((value, ctx) => {
          const problem = valueProblem(value, 0, { entries: 0 });
          if (problem !== null) ctx.addIssue({ code: 'custom', message: problem });
        }),
      )
      .refine((inputs) => Object.keys(inputs).length <= MAX_NODE_INPUTS, 'too many inputs'),
    _meta: z.object({ title: z.string().max(256).optional() }).optional(),
  }),
);
export type WorkflowNode = z.infer<ReturnType<typeof nodeSchema>>;

/** A workflow's graph, API format, each link to a node the graph has. */
export const workflowGraphSchema = lazySchema(() =>
  z.record(graphKey(NODE_ID), nodeSchema()).superRefine((graph, ctx) => {
    const count = Object.keys(graph).length;
    if (count === 0 || count > MAX_WORKFLOW_NODES) {
      ctx.addIssue({ code: 'custom', message: `A workflow has 1 to ${MAX_WORKFLOW_NODES} nodes.` });
      return;
    }
    const dangling = danglingLink(graph);
    if (dangling !== null) ctx.addIssue({ code: 'custom', message: dangling });
  }),
);
export type WorkflowGraph = z.infer<ReturnType<typeof workflowGraphSchema>>;

/** `node id.input name`: where a role's value goes (the IPC contract's map takes the same). */
export const inputPathSchema = lazySchema(() =>
  z
    .string()
    .max(200)
    .regex(/^[A-Za-z0-9_:-]{1,64}\.[A-Za-z0-9_ +-]{1,128}$/),
);

const workflowMapSchema = lazySchema(() =>
  z
    .object({
      prompt: inputPathSchema(),
      negative: inputPathSchema().optional(),
      seed: inputPathSchema().optional(),
      width: inputPathSchema().optional(),
      height: inputPathSchema().optional(),
      steps: inputPathSchema().optional(),
      image: inputPathSchema().optional(),
    })
    // A role Pictor does not have is left out of a record read back (events, archives); an import
    // refuses one (comfy-prompt.ts `mappedWorkflow`).
    .strip(),
);
export type WorkflowMap = z.infer<ReturnType<typeof workflowMapSchema>>;

/**
 * A workflow and its map, as a model of the ComfyUI provider keeps it and a request carries it.
 * Built on first use (lazy-schema.ts).
 */
export const comfyWorkflowSchema = lazySchema(() =>
  z
    .object({ graph: workflowGraphSchema(), map: workflowMapSchema() })
    .superRefine((workflow, ctx) => {
      for (const problem of mapProblems(workflow.graph, workflow.map))
        ctx.addIssue({ code: 'custom', message: problem });
    }),
);
export type ComfyWorkflow = z.infer<ReturnType<typeof comfyWorkflowSchema>>;

function valueProblem(value: unknown, depth: number, count: { entries: number }): string | null {
  count.entries += 1;
  if (count.entries > MAX_VALUE_ENTRIES) return 'An input holds too many values.';
  if (value === null || typeof value === 'boolean') return null;
  if (typeof value === 'number') return Number.isFinite(value) ? null : 'A number is not finite.';
  if (typeof value === 'string') return value.length <= MAX_TEXT ? null : 'A text is too long.';
  if (typeof value !== 'object') return 'An input holds a value JSON cannot.';
  if (depth >= MAX_VALUE_DEPTH) return 'An input is nested too deeply.';
  const entries = Array.isArray(value) ? value : Object.entries(value as object);
  if (!Array.isArray(value) && Object.keys(value).some((key) => RESERVED.has(key)))
    return 'An input names a reserved key.';
  for (const entry of entries) {
    const inner = Array.isArray(value) ? entry : (entry as [string, unknown])[1];
    const problem = valueProblem(inner, depth + 1, count);
    if (problem !== null) return problem;
  }
  return null;
}

/** A link (`["4", 0]`) whose node the graph lacks, said as a sentence; null when none. */
function danglingLink(graph: Record<string, WorkflowNode>): string | null {
  for (const [id, node] of Object.entries(graph)) {
    for (const [name, value] of Object.entries(node.inputs)) {
      if (!isLink(value)) continue;
      // The node it names is the file's own text: said cleaned and cut (shown-name.ts).
      if (!Object.hasOwn(graph, value[0]))
        return `Input ${id}.${name} links to node ${cleanName(value[0], 40) ?? '?'}, which the workflow lacks.`;
    }
  }
  return null;
}

function isLink(value: unknown): value is [string, number] {
  return (
    Array.isArray(value) &&
    value.length === 2 &&
    typeof value[0] === 'string' &&
    Number.isInteger(value[1])
  );
}

/** The node and input a path names. */
export function splitPath(path: string): { node: string; input: string } {
  const dot = path.indexOf('.');
  return { node: path.slice(0, dot), input: path.slice(dot + 1) };
}

/** What is wrong with `map` for `graph`: each role's input must exist and hold its kind of value. */
function mapProblems(graph: WorkflowGraph, map: WorkflowMap): string[] {
  const problems: string[] = [];
  for (const role of WORKFLOW_ROLES) {
    const path = map[role];
    if (path === undefined) continue;
    const { node, input } = splitPath(path);
    const inputs = Object.hasOwn(graph, node) ? graph[node]?.inputs : undefined;
    if (inputs === undefined || !Object.hasOwn(inputs, input)) {
      problems.push(`The ${role} goes to ${path}, which the workflow does not have.`);
      continue;
    }
    const value = inputs[input];
    const fits = TEXT_ROLES.has(role) ? typeof value === 'string' : typeof value === 'number';
    if (!fits) {
      const kind = TEXT_ROLES.has(role) ? 'text' : 'a number';
      problems.push(
        `The ${role} goes to ${path}, which holds ${isLink(value) ? 'a link' : 'something else'}, not ${kind}.`,
      );
    }
  }
  return problems;
}
