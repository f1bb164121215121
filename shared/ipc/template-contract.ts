/**
 * The prompt templates' requests: the library's templates and word lists, a change to one, an
 * import or export through main's own dialogs (the page never names a path), and a template run's
 * plan and run. The page names a template by id with its form's values: main reads the template
 * and expands it (electron/core/batch/template-runs.ts), so what is sent is what main expanded,
 * never prompts the page wrote. Every input is bounded here; main checks every word again.
 */
import { isVariableName } from '../domain/template-language';
import { z } from 'zod';
import { lazySchema } from '../domain/lazy-schema';
import { channel } from './lazy-contract';
import { spendingCapSchema } from '../domain/cost-ledger';
import { TASKS_PER_SUBMIT } from '../domain/limits';
import {
  MAX_TEMPLATE_NAME_CHARS,
  MAX_TEMPLATE_TEXT_CHARS,
  promptTemplateSchema,
} from '../domain/prompt-template';
import { submitTargetSchema } from '../domain/submit-target';
import { costUnitSchema, taskCostSchema } from '../domain/task-cost';
import { MAX_TEMPLATE_RUN_VALUES, MAX_TEMPLATE_VALUE_CHARS } from '../domain/task-template';
import { MAX_LIBRARY_TEMPLATES } from '../domain/template-library';
import { MAX_BOARD_PATH_UNITS } from '../domain/triage';
import { MAX_WORD_LISTS, MAX_WORDS_PER_LIST, wordListSchema } from '../domain/word-lists';
import { sentenceSchema } from '../i18n/sentence';
import { pageRequestSchema } from '../service/wire';
import { count } from './selection-schemas';
import { taskItemSchema } from './task-item';

/** Prompts one expansion may show or run (the preview's limit and the engine's). */
const MAX_PLAN_PROMPTS = 100;
/** Problems an import or export answers with (the rest are counted only by the file). */
const MAX_LISTED_PROBLEMS = 200;

const templateId = lazySchema(() => promptTemplateSchema().shape.id);
/** A name as the page sends it (main trims, normalises and checks it). */
const name = lazySchema(() =>
  z
    .string()
    .min(1)
    .max(4 * MAX_TEMPLATE_NAME_CHARS),
);
const text = lazySchema(() => z.string().max(2 * MAX_TEMPLATE_TEXT_CHARS));
const listName = lazySchema(() => z.string().min(1).max(200));
/** A variable's name as the template language reads it (never `__proto__`: it is no name). */
const variableName = lazySchema(() =>
  z
    .string()
    .max(64)
    .refine((name) => isVariableName(name) && name !== '__proto__', 'not a variable name'),
);

/** A row of the library that cannot be read: its name as the row holds it, and why. */
const templateProblemSchema = lazySchema(() =>
  z.object({
    id: z.string(),
    name: z.string(),
    problem: sentenceSchema(),
  }),
);

/** A problem of one entry of an imported file (its line or index) or of an exported template. */
const fileProblemSchema = lazySchema(() =>
  z.object({
    name: z.string().optional(),
    line: count().optional(),
    index: count().optional(),
    leftOut: z.boolean().optional(),
    problem: sentenceSchema(),
  }),
);

/** How the prompts are drawn: every combination, or `count` at random from `seed`. */
export const expansionModeSchema = lazySchema(() =>
  z.discriminatedUnion('kind', [
    z.object({ kind: z.literal('combinatorial') }).strict(),
    z
      .object({
        kind: z.literal('random'),
        count: z.number().int().min(1).max(MAX_PLAN_PROMPTS),
        seed: z.number().int().min(0).max(0xffff_ffff),
      })
      .strict(),
  ]),
);

/**
 * A template run as the compose form asks it: the template, its values (by variable name), the
 * prompt box, the mode, and the form's target and request (their prompt is each expanded one).
 */
export const templateRunInputSchema = lazySchema(() =>
  z
    .object({
      templateId: templateId(),
      values: z
        .record(variableName(), z.string().max(MAX_TEMPLATE_VALUE_CHARS))
        .refine(
          (values) => Object.keys(values).length <= MAX_TEMPLATE_RUN_VALUES,
          'too many values',
        ),
      prompt: text(),
      mode: expansionModeSchema(),
      target: submitTargetSchema(),
      request: pageRequestSchema().omit({ prompt: true }),
      count: z.number().int().min(TASKS_PER_SUBMIT.min).max(TASKS_PER_SUBMIT.max),
      board: z.string().min(1).max(MAX_BOARD_PATH_UNITS).optional(),
    })
    .strict(),
);

const estimateSchema = lazySchema(() =>
  z.object({
    perPrompt: z.array(taskCostSchema()).max(MAX_PLAN_PROMPTS),
    totals: z
      .array(
        z.object({
          unit: costUnitSchema(),
          micros: count(),
          estimatedMicros: count(),
          tasks: count(),
        }),
      )
      .max(20),
    unknownTasks: count(),
  }),
);

/** What running the template would send and cost: the preview's figures, nothing stored. */
const templatePlanSchema = lazySchema(() =>
  z.object({
    template: z.object({ id: z.string(), name: z.string(), version: count() }),
    prompts: z.array(z.string()).max(MAX_PLAN_PROMPTS),
    negative: z
      .object({
        text: z.string(),
        sent: z.boolean(),
        why: sentenceSchema().optional(),
        name: z.string().max(64).optional(),
      })
      .nullable(),
    tasks: count(),
    estimate: estimateSchema(),
    warnings: z.array(sentenceSchema()).max(100),
    hardCap: z
      .object({ refusal: sentenceSchema(), caps: z.array(spendingCapSchema()).max(100) })
      .nullable(),
  }),
);
export type TemplatePlanOutput = z.infer<ReturnType<typeof templatePlanSchema>>;

export const templateRequests = {
  /** Every template (a row that cannot be read, with its sentence) and every word list. */
  'templates:list': channel(() => ({
    input: z.undefined(),
    output: z.object({
      templates: z.array(promptTemplateSchema()).max(MAX_LIBRARY_TEMPLATES),
      problems: z.array(templateProblemSchema()).max(MAX_LIBRARY_TEMPLATES),
      wordLists: z.array(wordListSchema()).max(MAX_WORD_LISTS),
    }),
  })),
  /** Makes a template, or (with `id` and the `version` edited) changes one; answers it as saved. */
  'templates:save': channel(() => ({
    input: z
      .object({
        name: name(),
        body: text(),
        negative: text().optional(),
        id: templateId().optional(),
        version: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER).optional(),
      })
      .strict(),
    output: promptTemplateSchema(),
  })),
  'templates:delete': channel(() => ({
    input: z.object({ id: templateId() }).strict(),
    output: z.void(),
  })),
  /** Makes or replaces a word list (one word a line in the form; empty ones dropped by main). */
  'templates:wordList:save': channel(() => ({
    input: z
      .object({
        name: listName(),
        words: z.array(z.string().max(1_000)).max(MAX_WORDS_PER_LIST * 2),
      })
      .strict(),
    output: wordListSchema(),
  })),
  'templates:wordList:delete': channel(() => ({
    input: z.object({ name: listName() }).strict(),
    output: z.void(),
  })),
  /** Imports the file main's own open dialog returns; `summary` null: the user cancelled. */
  'templates:import': channel(() => ({
    input: z.object({ format: z.enum(['pictor', 'fooocus', 'a1111', 'invokeai']) }).strict(),
    output: z.object({
      summary: z
        .object({
          imported: count(),
          problems: z.array(fileProblemSchema()).max(MAX_LISTED_PROBLEMS),
          problemsTotal: count(),
        })
        .nullable(),
    }),
  })),
  /** Writes the templates (all, or `ids`) to the file main's own save dialog returns. */
  'templates:export': channel(() => ({
    input: z
      .object({
        format: z.enum(['pictor', 'fooocus', 'a1111']),
        ids: z.array(templateId()).max(MAX_LIBRARY_TEMPLATES).optional(),
      })
      .strict(),
    output: z.object({
      summary: z
        .object({
          count: count(),
          problems: z.array(fileProblemSchema()).max(MAX_LISTED_PROBLEMS),
          problemsTotal: count(),
        })
        .nullable(),
    }),
  })),
  /** The preview: the prompts main would send, the tasks, their estimate and what the caps say. */
  'templates:plan': channel(() => ({
    input: templateRunInputSchema(),
    output: templatePlanSchema(),
  })),
  /**
   * Plans again in main and submits every task as one batch; over a hard cap main asks the user
   * in its own dialog first. Answers the new tasks, as `tasks:submit` does.
   */
  'templates:run': channel(() => ({
    input: templateRunInputSchema(),
    output: z.array(taskItemSchema()),
  })),
} as const;

export { MAX_LISTED_PROBLEMS };
