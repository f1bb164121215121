/**
 * The `keys:` requests, one family for every service: a key goes in, only its status (never the
 * key) comes out. Each names its service (shared/domain/providers.ts), parsed like every other
 * input.
 */
import { z } from 'zod';
import { lazySchema } from '../domain/lazy-schema';
import { channel } from './lazy-contract';
import { keyStatusSchema, keyStatusesSchema } from '../domain/key-status';
import { providerIdSchema } from '../domain/providers';
import { connectionReportSchema } from './service-contract';

const none = lazySchema(() => z.undefined());
const key = lazySchema(() => z.string().min(1).max(4_096));

/**
 * What Save did with a key (core/key-vault/save-checked-key.ts): stored (`status.check` says
 * whether its service accepted it, or the user saved it unchecked); nothing stored because the
 * storage needs the user's consent or is not ready (`storage`: the status says which), because the
 * service refused the key (`refused`), or because the service could not be asked (`unchecked`:
 * the report says why, and the user may save it without checking).
 */
const keySaveSchema = lazySchema(() =>
  z.discriminatedUnion('outcome', [
    z.object({ outcome: z.literal('saved'), status: keyStatusSchema() }),
    z.object({ outcome: z.literal('storage'), status: keyStatusSchema() }),
    z.object({ outcome: z.literal('refused'), report: connectionReportSchema() }),
    z.object({ outcome: z.literal('unchecked'), report: connectionReportSchema() }),
  ]),
);

export const keyRequests = {
  /** Every service's key status. */
  'keys:getStatuses': channel(() => ({ input: none(), output: keyStatusesSchema() })),
  /**
   * Save: checks a key with its service's key probe (no task is created) at that service's
   * address as Settings has it now, and stores it bound there when the service accepted it;
   * `skipCheck`: the user answered "Save without checking?", so it is stored unchecked. Main makes
   * the check itself: the page cannot mark a key as checked.
   */
  'keys:set': channel(() => ({
    input: z
      .object({
        provider: providerIdSchema(),
        key: key(),
        allowWeakStorage: z.boolean(),
        skipCheck: z.boolean().optional(),
      })
      .strict(),
    output: keySaveSchema(),
  })),
  'keys:clear': channel(() => ({
    input: z.object({ provider: providerIdSchema() }).strict(),
    output: keyStatusSchema(),
  })),
} as const;
