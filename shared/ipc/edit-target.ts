/**
 * An edit's target as the page chooses it (inputs-contract.ts sends a list of them): a file of its
 * own, so the core's edit plan checks a target without loading the whole inputs contract, whose
 * schemas every command that opens the core would otherwise build at its start.
 */
import { z } from 'zod';
import { lazySchema } from '../domain/lazy-schema';
import { providerIdSchema } from '../domain/providers';

/** Words a person typed: trimmed, not empty, at most `max` characters. */
export const typedWord = (max: number) => z.string().trim().min(1).max(max);

/** A target as the page chooses it: no address, no key (those are main's). */
export const editTargetSchema = lazySchema(() =>
  z
    .object({
      provider: providerIdSchema(),
      model: typedWord(200),
      size: typedWord(40).optional(),
      quality: typedWord(40).optional(),
    })
    .strict(),
);
