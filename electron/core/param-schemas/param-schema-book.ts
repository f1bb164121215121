/**
 * The models' options Pictor did not ship: read from a service's published schema ("Refresh
 * options", `pictor models show MODEL --refresh`, a model's first use) or given by the user for a
 * service of their own (`pictor models import-schema`, the form's file pick), kept in one file in
 * the data folder (`model-options.json`, 0600) so they work offline, and used over the shipped
 * ones in this process once read (model-param-schemas.ts's paramSchemaOf). The file is read as
 * hostile: a regular file, bounded, every entry checked as an option schema; at most
 * {@link MAX_KEPT} models are kept, the least recently refreshed dropped first.
 *
 * A front's refresh, file, "None" and a model's first use pass the core's closing gate
 * (core/base/closing-gate.ts, {@link openModelOptions}): refused once the close has begun; one
 * asked before is waited for by the close, its file written before the close goes on.
 */
import { dirname, join } from 'node:path';
import { z } from 'zod';
import type { ParamSchema } from '../../../shared/domain/model-params';
import { lazySchema } from '../../../shared/domain/lazy-schema';
import { paramSpecsSchema } from '../../../shared/domain/param-specs-schema';
import { useParamSchemas } from '../../../shared/domain/model-param-schemas';
import { providerIdSchema, type ProviderId } from '../../../shared/domain/providers';
import {
  MAX_SCHEMA_CHARS,
  PUBLISHING_SERVICES,
  readFetchedSchema,
} from '../../../shared/domain/fetched-param-schema';
import { sentence, type Sentence } from '../../../shared/i18n/sentence';
import type { FetchLike } from '../../ports/http';
import type { CredentialsProvider, ServiceCredentials } from '../../ports/credentials';
import { ClosingGate } from '../base';
import { fetchPublishedSchema, type SchemaReach } from '../service';
import { readRegularFile, writePrivateFile } from '../fs';

const BOOK_FILE = 'model-options.json';
/** Models whose options are kept. */
const MAX_KEPT = 200;
/** The file: {@link MAX_KEPT} schemas of {@link MAX_PARAMS} options, with room. */
const MAX_FILE_BYTES = 4 * 1024 * 1024;

/** How a kept schema came: fetched from the service, or given in a file. */
export type SchemaOrigin = 'fetched' | 'file';

/** A kept entry; built on first use (lazy-schema.ts), as the option schemas it holds are. */
const entrySchema = lazySchema(() =>
  z.object({
    provider: providerIdSchema(),
    model: z.string().min(1).max(200),
    origin: z.enum(['fetched', 'file']),
    at: z.number().int().min(0),
    params: paramSpecsSchema(),
  }),
);
type Entry = z.infer<ReturnType<typeof entrySchema>>;

/** What a file's options came to: the names kept, or why none could be. */
export type FileImport =
  | { readonly ok: true; readonly names: readonly string[] }
  | { readonly ok: false; readonly problem: Sentence };

/** What a refresh came to: kept, or the sentence saying why not (the known options stay). */
type Refreshed = { ok: true } | { ok: false; problem: Sentence };

/** A kept schema as the window receives it. */
interface KeptParamSchema extends ParamSchema {
  readonly provider: ProviderId;
  readonly model: string;
}
/** The file's frame; each entry is checked on its own after (a broken one is left out). */
const bookSchema = lazySchema(() =>
  z.object({ version: z.literal(1), models: z.array(z.unknown()).max(MAX_KEPT) }),
);

export class ParamSchemaBook {
  #entries: Entry[] = [];

  constructor(
    private readonly dataDir: string,
    private readonly now: () => number,
  ) {}

  /** The library's data folder the book is kept in (its settings.json beside it). */
  get folder(): string {
    return this.dataDir;
  }

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

  /** Every kept schema, with its provider and model (the window uses them as this process does). */
  kept(): readonly KeptParamSchema[] {
    return this.#entries.map(({ provider, model, params }) => ({ provider, model, params }));
  }

  /**
   * Fetches the options `credentials`' service publishes for `model` and keeps them: the one
   * refresh of the CLI's `models show --refresh`, the window's "Refresh options" and a model's
   * first use. A failure is its sentence; the options known before stay in use. What comes back
   * is searched for every key `reach` holds, not only the one sent (published-schema.ts).
   */
  async refresh(
    reach: SchemaReach,
    credentials: ServiceCredentials,
    model: string,
  ): Promise<Refreshed> {
    const fetched = await fetchPublishedSchema(reach, credentials, model);
    if (!fetched.ok) return fetched;
    await this.keep(credentials.provider ?? 'pictor', model, fetched.schema, 'fetched');
    return { ok: true };
  }

  /**
   * A model's first use (the window's form, `pictor generate` and `compare`, the MCP tools): its
   * published options are fetched and kept by {@link refresh} when its service publishes them
   * and none are kept yet; undefined when nothing was asked.
   */
  async firstUse(
    reach: SchemaReach,
    credentials: ServiceCredentials,
    model: string,
  ): Promise<Refreshed | undefined> {
    const provider = credentials.provider ?? 'pictor';
    if (!PUBLISHING_SERVICES.has(provider) || model === '') return undefined;
    if (this.lookup(provider, model) !== undefined) return undefined;
    return this.refresh(reach, credentials, model);
  }

  /**
   * Keeps the options of the small JSON schema file at `path` for `model` (`pictor models
   * import-schema`, the form's "Options from a file…" through main's open dialog): read with a size
   * bound and by the same hostile-schema reader as a fetched one (depth, nodes, `$ref` loops,
   * renderable kinds). A file that cannot be used is the sentence saying what it must be.
   */
  async importFile(provider: ProviderId, model: string, path: string): Promise<FileImport> {
    let text = '';
    try {
      text = (await readRegularFile(dirname(path), path, MAX_SCHEMA_CHARS)).toString('utf8');
    } catch {
      // Missing, not a regular file, or larger than a schema may be: said as unusable below.
    }
    const schema = text === '' ? undefined : readFetchedSchema(text, 'file');
    if (schema === undefined) return { ok: false, problem: sentence('error.params.schemaFile') };
    await this.keep(provider, model, schema, 'file');
    return { ok: true, names: Object.keys(schema.params) };
  }

  /** Keeps `schema` for `model` (replacing one kept before) and uses it from now on. */
  async keep(
    provider: ProviderId,
    model: string,
    schema: ParamSchema,
    origin: SchemaOrigin,
  ): Promise<void> {
    const entry = entrySchema().parse({
      provider,
      model,
      origin,
      at: this.now(),
      params: schema.params,
    });
    const others = this.#entries.filter((e) => e.provider !== provider || e.model !== model);
    await this.#write([...others.sort((a, b) => b.at - a.at).slice(0, MAX_KEPT - 1), entry]);
  }

  /**
   * "None" for a service of the user's own: the options given in a file for `model` are forgotten
   * (the model takes none but the prompt, size and quality, or the ones Pictor ships); options
   * fetched from a service are left to "Refresh options". True when some were forgotten.
   */
  async forget(provider: ProviderId, model: string): Promise<boolean> {
    if (this.lookup(provider, model)?.origin !== 'file') return false;
    await this.#write(this.#entries.filter((e) => e.provider !== provider || e.model !== model));
    return true;
  }

  async #write(kept: Entry[]): Promise<void> {
    const text = JSON.stringify({ version: 1, models: kept });
    await writePrivateFile(this.dataDir, join(this.dataDir, BOOK_FILE), text);
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
    const book = bookSchema().safeParse(parsed);
    if (!book.success) return [];
    return book.data.models.flatMap((raw) => {
      const entry = entrySchema().safeParse(raw);
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

/** A library's model options as a front uses them: the kept ones, and a refresh over `fetch`. */
export interface ModelOptions {
  kept(): readonly KeptParamSchema[];
  refresh(credentials: ServiceCredentials, model: string): Promise<Refreshed>;
  /** A model's first use ({@link ParamSchemaBook.firstUse}); undefined: nothing was asked. */
  firstUse(credentials: ServiceCredentials, model: string): Promise<Refreshed | undefined>;
  /** Keeps the options of the schema file at `path` (a path main's own dialog gave). */
  importFile(provider: ProviderId, model: string, path: string): Promise<FileImport>;
  /** Forgets the options a file gave `model` ({@link ParamSchemaBook.forget}). */
  forget(provider: ProviderId, model: string): Promise<boolean>;
}

/**
 * The book of model options in `dataDir`, opened, refreshed over `fetch`; what a refresh gets is
 * searched for every key `credentials` hold (CredentialsProvider.heldKeys), as an answer is. Each
 * change passes `gate` (the core's; default one never closed): refused with "Pictor is closing"
 * once the close has begun, nothing fetched or written; one asked before is waited for by the
 * close, so none writes into a library being closed, moved or removed.
 */
export async function openModelOptions(
  dataDir: string,
  fetch: FetchLike,
  credentials: Pick<CredentialsProvider, 'heldKeys'>,
  gate: ClosingGate = new ClosingGate(),
): Promise<ModelOptions> {
  const reach: SchemaReach = { fetch, heldKeys: credentials.heldKeys?.bind(credentials) };
  const book = await openParamSchemaBook(dataDir);
  return {
    kept: () => book.kept(),
    refresh: (given, model) => gate.ask(() => book.refresh(reach, given, model)),
    firstUse: (given, model) => gate.ask(() => book.firstUse(reach, given, model)),
    importFile: (provider, model, path) => gate.ask(() => book.importFile(provider, model, path)),
    forget: (provider, model) => gate.ask(() => book.forget(provider, model)),
  };
}
