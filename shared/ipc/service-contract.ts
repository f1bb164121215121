/**
 * The `service:` requests: "Test connection" in Settings. A key may come in (the one being
 * entered, tested before it is stored); only a report in sentences comes out, never a key.
 */
import { z } from 'zod';
import { lazySchema } from '../domain/lazy-schema';
import { channel } from './lazy-contract';
import { providerIdSchema } from '../domain/providers';
import { costUnitSchema } from '../domain/task-cost';
import { sentenceSchema } from '../i18n/sentence';

export const connectionReportSchema = lazySchema(() =>
  z.object({
    ok: z.boolean(),
    /** What the test found (core/service/connection-test.ts `ConnectionOutcome`). */
    outcome: z.enum(['accepted', 'key_refused', 'unreachable', 'failed', 'not_tested']),
    message: z.string(),
    /** `message` as a catalogue sentence, shown in the window's language. */
    sentence: sentenceSchema().optional(),
    detail: z.string().optional(),
    /** What the account had left when the test read it (BFL's credits), and when. */
    balance: z
      .object({
        micros: z.number().int().min(0),
        unit: costUnitSchema(),
        readAt: z.number(),
      })
      .optional(),
  }),
);

/** The key being entered in Settings, tested before it is stored (where it would be stored). */
const enteredKey = lazySchema(() => z.string().min(1).max(4_096).optional());

export const serviceRequests = {
  /**
   * Tests the service address typed in Settings (saved or not; empty: the demo service) with the
   * key being entered, or else the key main holds for its origin (which never crosses).
   */
  'service:testConnection': channel(() => ({
    input: z.object({ baseUrl: z.string().max(2_000), key: enteredKey() }).strict(),
    output: connectionReportSchema(),
  })),
  /**
   * Tests a service at its saved address (the user's own too, once saved), with its key
   * probe, which creates no task: with the key being entered ("Connect a service", before it is
   * stored), or else with its stored key. The page never names the address: a key goes only to
   * the address the user saved for that service, where Save (`keys:set`) would check it too.
   */
  'service:testService': channel(() => ({
    input: z.object({ provider: providerIdSchema(), key: enteredKey() }).strict(),
    output: connectionReportSchema(),
  })),
} as const;
