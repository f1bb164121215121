/**
 * The models' options Pictor did not ship: read from a service's published schema ("Refresh
 * options", `pictor models show MODEL --refresh`, a model's first use) or given by the user for a
 * service of their own (`pictor models import-schema`, the form's file pick), kept in one file in
 * the data folder (`model-options.json`, 0600) so they work offline, and used over the shipped
 * ones in this process once read (model-param-schemas.ts's paramSchemaOf). The file is read as
 * hostile: a regular file, bounded, every entry checked as an option schema; at most
 * {@link MAX_KEPT} models are kept, the least recently refreshed dropped first.
 */
import { join } from 'node:path';
import { z } from 'zod';
import {
  COMMON_PARAMS,
  MAX_PARAMS,
  MAX_PARAM_TEXT,
  type ParamSchema,
} from '../../../shared/domain/model-params';
import { useParamSchemas } from '../../../shared/domain/model-param-schemas';
import { providerIdSchema, type ProviderId } from '../../../shared/domain/providers';
import { isParamName } from '../../../shared/domain/param-names';
import {
  PRIVATE_FILE_MODE,
  TEMP_DIR,
  ensurePrivateFolder,
  readRegularFile,
  writeFileAtomic,
} from '../fs';

const BOOK_FILE = 'model-options.json';
/** Models whose options are kept. */
const MAX_KEPT = 200;
/** The file: {@link MAX_KEPT} schemas of {@link MAX_PARAMS} options, with room. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

const number = z.number().finite();
const base = {
  title: z.string().max(200).optional(),
  common: z.enum(COMMON_PARAMS).optional(),
};
const specSchema = z.discriminatedUnion('type', [
  z.object({
    ...base,
    type: z.literal('enum'),
    values: z
      .array(z.union([z.string().max(64), number]))
      .min(1)
      .max(64),
    default: z.union([z.string().max(64), number]).optional(),
  }),
  z.object({
    ...base,
    type: z.enum(['integer', 'number']),
    min: number,
    max: number,
    step: number.positive().optional(),
    default: number.optional(),
  }),
  z.object({ ...base, type: z.literal('boolean'), default: z.boolean().optional() }),
  z.object({
    ...base,
    type: z.literal('string'),
    maxLength: z.number().int().min(0).max(MAX_PARAM_TEXT),
    default: z.string().max(MAX_PARAM_TEXT).optional(),
  }),
]);
const paramsSchema = z
  .record(z.string().refine(isParamName), specSchema)
  .refine((params) => Object.keys(params).length <= MAX_PARAMS);

/** How a kept schema came: fetched from the service, or given in a file. */
export type SchemaOrigin = 'fetched' | 'file';

const entrySchema = z.object({
  provider: providerIdSchema,
  model: z.string().min(1).max(200),
  origin: z.enum(['fetched', 'file']),
  at: z.number().int().min(0),
  params: paramsSchema,
});
type Entry = z.infer<typeof entrySchema>;
const bookSchema = z.object({ version: z.literal(1), models: z.array(z.unknown()).max(MAX_KEPT) });

export class ParamSchemaBook {
  #entries: Entry[] = [];

  constructor(
    private readonly dataDir: string,
    private readonly now: () => number,
  ) {}

  /** Reads the kept schemas and uses them in this process; a broken file or entry is left out. */
  async open(): Promise<void> {
    this.#entries = await this.#read();
    useParamSchemas(this.#entries);
  }

  /** The kept schema of `model` on `provider`, with where it came from. */
  lookup(
    provider: ProviderId,
    model: string,
  ): (ParamSchema & { origin: SchemaOrigin }) | undefined {
    return this.#entries.find((entry) => entry.provider === provider && entry.model === model);
  }

  /** Keeps `schema` for `model` (replacing one kept before) and uses it from now on. */
  async keep(
    provider: ProviderId,
    model: string,
    schema: ParamSchema,
    origin: SchemaOrigin,
  ): Promise<void> {
    const entry = entrySchema.parse({
      provider,
      model,
      origin,
      at: this.now(),
      params: schema.params,
    });
    const others = this.#entries.filter((e) => e.provider !== provider || e.model !== model);
    const kept = [...others.sort((a, b) => b.at - a.at).slice(0, MAX_KEPT - 1), entry];
    await ensurePrivateFolder(this.dataDir);
    await ensurePrivateFolder(join(this.dataDir, TEMP_DIR));
    const text = JSON.stringify({ version: 1, models: kept });
    await writeFileAtomic(this.dataDir, join(this.dataDir, BOOK_FILE), text, PRIVATE_FILE_MODE);
    this.#entries = kept;
    useParamSchemas(kept);
  }

  async #read(): Promise<Entry[]> {
    let parsed: unknown;
    try {
      const bytes = await readRegularFile(
        this.dataDir,
        join(this.dataDir, BOOK_FILE),
        MAX_FILE_BYTES,
      );
      parsed = JSON.parse(bytes.toString('utf8'));
    } catch {
      return [];
    }
    const book = bookSchema.safeParse(parsed);
    if (!book.success) return [];
    return book.data.models.flatMap((raw) => {
      const entry = entrySchema.safeParse(raw);
      return entry.success ? [entry.data] : [];
    });
  }
}

/** The book of model options in `dataDir`, read and in use in this process. */
export async function openParamSchemaBook(dataDir: string): Promise<ParamSchemaBook> {
  const book = new ParamSchemaBook(dataDir, Date.now);
  await book.open();
  return book;
}
