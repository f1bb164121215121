/**
 * What the compose form remembers across restarts: the draft as typed (an unsent prompt is not
 * lost when the app quits) and the prompts sent lately (Up in an empty prompt recalls them).
 * Kept in the window's localStorage, as the gallery's display choices are (gallery-display.ts):
 * it is the page's own typing, nothing the main process acts on, so it needs no IPC channel a
 * compromised page could use, and the settings file keeps holding what the app does. The
 * prompts are already in the history on the same disk. A stored value is parsed field by field;
 * anything unreadable falls back alone; storage that cannot be read or written only forgets.
 */
import { z } from 'zod';
import { REQUEST_LIMITS } from '../../shared/domain/limits';
import { MAX_PARAMS, MAX_PARAM_TEXT } from '../../shared/domain/model-params';
import { isParamName } from '../../shared/domain/param-names';
import { readStored, writeStored } from '../lib/stored-value';

/** Prompts kept for recall, newest first. */
const RECENT_PROMPTS = 20;
/** Models whose typed options are kept. */
const MAX_REMEMBERED_MODELS = 50;

const text = (max: number) => z.string().max(max).catch('');

const draftSchema = z.object({
  prompt: text(REQUEST_LIMITS.prompt),
  model: text(REQUEST_LIMITS.model),
  size: text(100),
  sizeCustom: z.boolean().catch(false),
  quality: text(REQUEST_LIMITS.quality),
  qualityCustom: z.boolean().catch(false),
  count: text(10),
  // Options as typed, per service and model: bounded as the request's own are.
  params: z
    .record(
      z.string().max(REQUEST_LIMITS.model + 20),
      z
        .record(z.string().refine(isParamName), z.string().max(MAX_PARAM_TEXT))
        .refine((typed) => Object.keys(typed).length <= MAX_PARAMS),
    )
    .refine((all) => Object.keys(all).length <= MAX_REMEMBERED_MODELS)
    .catch({}),
  seed: text(20),
  seedLocked: z.boolean().catch(false),
});

const memorySchema = z.object({
  draft: draftSchema.nullable().catch(null),
  recent: z.array(z.string().max(REQUEST_LIMITS.prompt)).max(RECENT_PROMPTS).catch([]),
});

export type ComposeMemory = z.infer<typeof memorySchema>;

const KEY = 'pictor.compose';
const EMPTY: ComposeMemory = { draft: null, recent: [] };

export function loadComposeMemory(): ComposeMemory {
  return readStored(KEY, memorySchema, EMPTY);
}

export function saveComposeMemory(memory: ComposeMemory): void {
  writeStored(KEY, memory);
}

/** `recent` with `prompt` first (once), at most RECENT_PROMPTS. */
export function withRecent(recent: readonly string[], prompt: string): string[] {
  return [prompt, ...recent.filter((known) => known !== prompt)].slice(0, RECENT_PROMPTS);
}
