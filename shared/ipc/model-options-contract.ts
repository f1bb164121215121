/**
 * The `models:` requests: the models' options kept beside the shipped ones (fetched from a
 * service or given in a file, core/param-schemas), "Refresh options" and "Options from a file…"
 * for one model. The page
 * names only the provider and the model: main reads the service's saved address and its stored
 * key (which never crosses) and fetches the schema the service publishes, read as hostile.
 */
import { z } from 'zod';
import { lazySchema } from '../domain/lazy-schema';
import { channel } from './lazy-contract';
import { providerIdSchema } from '../domain/providers';
import { paramSpecsSchema } from '../domain/param-specs-schema';
import { sentenceSchema } from '../i18n/sentence';

/** Most models whose options are kept (the book keeps no more). */
const MAX_KEPT = 200;

const keptSchema = lazySchema(() =>
  z.object({
    provider: providerIdSchema(),
    model: z.string().min(1).max(200),
    params: paramSpecsSchema(),
  }),
);
const keptListSchema = lazySchema(() => z.array(keptSchema()).max(MAX_KEPT));
const modelSchema = lazySchema(() =>
  z.object({ provider: providerIdSchema(), model: z.string().trim().min(1).max(200) }).strict(),
);
/** What is kept after a refresh or a file (the new options among them), or why not. */
const keptAnswerSchema = lazySchema(() =>
  z.object({
    ok: z.boolean(),
    problem: sentenceSchema().optional(),
    kept: keptListSchema(),
  }),
);

export const modelOptionsRequests = {
  /** Every kept schema, used over the shipped ones in the window as in main. */
  'models:kept': channel(() => ({ input: z.undefined(), output: keptListSchema() })),
  /**
   * Fetches `model`'s options from where `provider` publishes them and keeps them; what is kept
   * then (the new options among them), or the sentence saying why not (the old options stay).
   */
  'models:refresh': channel(() => ({ input: modelSchema(), output: keptAnswerSchema() })),
  /**
   * "Options from a file…" for a service that publishes none (the seed's own): main's own open
   * dialog picks a small JSON schema file (the page never names a path), main reads it with a size
   * bound and the hostile-schema reader and keeps its options for `model`; cancelled: not ok and
   * no sentence.
   */
  'models:fromFile': channel(() => ({ input: modelSchema(), output: keptAnswerSchema() })),
  /**
   * "None": the options a file gave `model` are forgotten (options fetched from a service stay,
   * for "Refresh options"); what is kept then.
   */
  'models:forget': channel(() => ({ input: modelSchema(), output: keptListSchema() })),
} as const;
