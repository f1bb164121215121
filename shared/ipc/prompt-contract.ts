/**
 * The prompt history's requests (core/history/prompt-history.ts): the distinct prompts sent from
 * any front, searched, pinned and forgotten. The page names a prompt by its exact text; main finds
 * it or changes nothing.
 */
import { z } from 'zod';
import { lazySchema } from '../domain/lazy-schema';
import { channel } from './lazy-contract';
import { REQUEST_LIMITS } from '../domain/limits';
import { count } from './selection-schemas';

/** The longest search of the prompt history the page may send, in characters. */
export const MAX_PROMPT_QUERY = 200;
/** The most prompts one answer carries. */
export const MAX_PROMPT_ENTRIES = 500;

const promptText = lazySchema(() => z.string().min(1).max(REQUEST_LIMITS.prompt));

const promptEntrySchema = lazySchema(() =>
  z.object({
    prompt: z.string().max(REQUEST_LIMITS.prompt),
    lastUsedAt: z.number(),
    uses: count(),
    pinned: z.boolean(),
  }),
);
export type PromptEntryOutput = z.infer<ReturnType<typeof promptEntrySchema>>;

const changedSchema = lazySchema(() => z.object({ changed: z.boolean() }));

export const promptRequests = {
  /** Pinned prompts first, then the newest; those holding `query` anywhere, any case. */
  'prompts:history': channel(() => ({
    input: z
      .object({
        query: z.string().max(MAX_PROMPT_QUERY),
        limit: z.number().int().min(1).max(MAX_PROMPT_ENTRIES),
      })
      .strict(),
    output: z.object({ entries: z.array(promptEntrySchema()).max(MAX_PROMPT_ENTRIES) }),
  })),
  /** Pins or unpins a remembered prompt; refused with a sentence past the pins' limit. */
  'prompts:pin': channel(() => ({
    input: z.object({ prompt: promptText(), pinned: z.boolean() }).strict(),
    output: changedSchema(),
  })),
  /** Removes one prompt from the history, pinned or not. */
  'prompts:forget': channel(() => ({
    input: z.object({ prompt: promptText() }).strict(),
    output: changedSchema(),
  })),
  /** Removes every prompt that is not pinned. */
  'prompts:clear': channel(() => ({
    input: z.undefined(),
    output: z.object({ removed: count() }),
  })),
} as const;
