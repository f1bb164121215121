/**
 * The `key:` and `keys:` requests: a key goes in, only its status (never the key) comes out.
 * `key:*` is today's contract's key, as before services had keys of their own; `keys:*` names
 * the service (shared/domain/providers.ts), parsed like every other input.
 */
import { z } from 'zod';
import { keyStatusSchema, keyStatusesSchema } from '../domain/key-status';
import { providerIdSchema } from '../domain/providers';

const none = z.undefined();
const key = z.string().min(1).max(4_096);

export const keyRequests = {
  'key:getStatus': { input: none, output: keyStatusSchema },
  'key:set': {
    input: z.object({ key, allowWeakStorage: z.boolean() }).strict(),
    output: keyStatusSchema,
  },
  'key:clear': { input: none, output: keyStatusSchema },
  /** Every service's key status (`key:*` is today's contract's alone, as before). */
  'keys:getStatuses': { input: none, output: keyStatusesSchema },
  /** Stores a key for one service, bound to that service's address as Settings has it now. */
  'keys:set': {
    input: z
      .object({
        provider: providerIdSchema,
        key,
        allowWeakStorage: z.boolean(),
      })
      .strict(),
    output: keyStatusSchema,
  },
  'keys:clear': {
    input: z.object({ provider: providerIdSchema }).strict(),
    output: keyStatusSchema,
  },
} as const;
