/**
 * The ComfyUI workflows' requests (Settings, the ComfyUI service): the workflows kept as models,
 * an import through main's own open dialog (the page never names a path: main reads the file,
 * checks it as core/workflows does for `pictor comfy import`, and holds its graph under a token),
 * the inputs it shows for the page to map, the save of that graph with its map under a name, and
 * the removal of one. Every input is bounded here; main checks the name and the map again.
 */
import { z } from 'zod';
import { lazySchema } from '../domain/lazy-schema';
import { channel } from './lazy-contract';
import { MAX_WORKFLOW_NODES, WORKFLOW_ROLES, inputPathSchema } from '../domain/comfy-workflow';
import {
  MAX_WORKFLOW_NAME_CHARS,
  isKeptWorkflowName,
  isWorkflowName,
} from '../domain/workflow-name';

/** Most inputs of one node shown for mapping (a node has at most 100). */
const MAX_SHOWN_INPUTS = 100;
/** Longest text value shown beside an input (a prompt's beginning). */
export const MAX_SHOWN_VALUE_CHARS = 120;
/** Most workflows listed (core/workflows' book lists no more). */
const MAX_WORKFLOWS = 500;

/**
 * A new workflow's name, the one rule of a workflow's name (shared/domain/workflow-name.ts: the
 * model's id and its file's name, nothing Windows reads as another name); main checks it again.
 */
const workflowNameSchema = lazySchema(() =>
  z.string().max(MAX_WORKFLOW_NAME_CHARS).refine(isWorkflowName, 'not a workflow name'),
);
/**
 * A kept workflow's name, as listed and removed: one an older Pictor kept under a name the rule
 * now refuses (`CON`) is still one (workflow-name.ts `isKeptWorkflowName`).
 */
const keptWorkflowNameSchema = lazySchema(() =>
  z.string().max(MAX_WORKFLOW_NAME_CHARS).refine(isKeptWorkflowName, 'not a workflow name'),
);

/** Which input takes each role (the prompt's is required). */
const workflowMapInput = lazySchema(
  () =>
    z
      .object({
        prompt: inputPathSchema(),
        ...Object.fromEntries(
          WORKFLOW_ROLES.filter((role) => role !== 'prompt').map((role) => [
            role,
            inputPathSchema().optional(),
          ]),
        ),
      })
      .strict() as z.ZodType<
      { prompt: string } & Partial<Record<(typeof WORKFLOW_ROLES)[number], string>>
    >,
);

/** One input a role may take: text (a prompt, an image's file name) or a number. */
const shownInputSchema = lazySchema(() =>
  z.object({
    name: z.string().max(128),
    kind: z.enum(['text', 'number']),
    value: z.union([z.string().max(MAX_SHOWN_VALUE_CHARS), z.number().finite()]),
  }),
);

/** A node as the mapping shows it: its id, its class, its title, its mappable inputs. */
const shownNodeSchema = lazySchema(() =>
  z.object({
    id: z.string().max(64),
    classType: z.string().max(128),
    title: z.string().max(256).optional(),
    inputs: z.array(shownInputSchema()).max(MAX_SHOWN_INPUTS),
  }),
);
export type ShownWorkflowNode = z.infer<ReturnType<typeof shownNodeSchema>>;

export const workflowRequests = {
  /** The workflows kept as models of ComfyUI, by name, each with its map. */
  'workflows:list': channel(() => ({
    input: z.undefined(),
    output: z.object({
      workflows: z
        .array(z.object({ name: keptWorkflowNameSchema(), map: z.record(z.string(), z.string()) }))
        .max(MAX_WORKFLOWS),
    }),
  })),
  /**
   * Reads the workflow file main's own open dialog returns and holds its graph; `pick` null: the
   * user cancelled. A file that is no workflow is refused with the check's sentence.
   */
  'workflows:pick': channel(() => ({
    input: z.undefined(),
    output: z.object({
      pick: z
        .object({
          token: z.string().uuid(),
          suggestedName: z.string().max(64),
          nodes: z.array(shownNodeSchema()).max(MAX_WORKFLOW_NODES),
        })
        .nullable(),
    }),
  })),
  /**
   * Keeps the picked graph with `map` as the model `name`, replacing one of that name or of one
   * that differs from it only in case; `name`: the one it is kept under (that one's, if any).
   */
  'workflows:save': channel(() => ({
    input: z
      .object({ token: z.string().uuid(), name: workflowNameSchema(), map: workflowMapInput() })
      .strict(),
    output: z.object({ name: keptWorkflowNameSchema() }),
  })),
  /** Forgets a kept workflow; `removed` false: there was none of that name. */
  'workflows:remove': channel(() => ({
    input: z.object({ name: keptWorkflowNameSchema() }).strict(),
    output: z.object({ removed: z.boolean() }),
  })),
} as const;
