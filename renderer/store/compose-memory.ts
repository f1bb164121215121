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
import { readStored, writeStored } from '../lib/stored-value';

/** Prompts kept for recall, newest first. */
const RECENT_PROMPTS = 20;

const text = (max: number) => z.string().max(max).catch('');

const draftSchema = z.object({
  prompt: text(REQUEST_LIMITS.prompt),
  model: text(REQUEST_LIMITS.model),
  size: text(100),
  sizeCustom: z.boolean().catch(false),
  quality: text(REQUEST_LIMITS.quality),
  qualityCustom: z.boolean().catch(false),
  count: text(10),
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
