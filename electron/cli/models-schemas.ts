/**
 * The models' options Pictor did not ship, on the command line: `models show MODEL --refresh`
 * fetches the schema the model's service publishes (fal's OpenAPI, without the key; Replicate's
 * model, with SERVICE_API_KEY, to its own address only) and keeps it in the library's book of
 * model options (core/param-schemas); `models import-schema FILE --model M [--provider P]` keeps
 * the options given in a small JSON schema file for a service that publishes none (the seed's
 * own). Both read what they got as hostile (shared/domain/fetched-param-schema.ts). A failure says
 * its sentence and leaves the options Pictor knew in use. A model's first use (generate, compare,
 * the MCP tools) goes through the book's one first use, each with the key the command holds for
 * that service's address.
 */
import { PUBLISHING_SERVICES } from '../../shared/domain/fetched-param-schema';
import { PROVIDERS, type ProviderId } from '../../shared/domain/providers';
import { englishText, sentence, type Sentence } from '../../shared/i18n/sentence';
import { JsonFileKv } from '../adapters/json-file-kv';
import { createNodeFetch } from '../adapters/node-fetch';
import { gatedTransports } from '../core/download';
import { EditSettings } from '../core/settings';
import type { FetchLike } from '../ports/http';
import { silentLogger } from '../ports/logger';
import { UsageError } from '../core/command-line';
import {
  openParamSchemaBook,
  type ModelOptions,
  type ParamSchemaBook,
} from '../core/param-schemas';
import type { CredentialsProvider, ServiceCredentials } from '../ports/credentials';
import { EXIT, cliWording } from './cli-report';
import type { CliIo } from './cli-io';
import { EnvCredentials } from './env-credentials';
import { common } from './common-args';
import { terminalSafe } from './terminal-text';

/** The book of model options in `dataDir`, opened (its schemas in use in this process). */
export function openedBook(dataDir: string): Promise<ParamSchemaBook> {
  return openParamSchemaBook(dataDir);
}

/**
 * Opens the book of the library `args` name (`--data-dir`, else the default one), before a
 * command types a model's options (generate's --param): its kept schemas are then in use.
 */
export function openNamedBook(
  args: readonly string[],
  env: NodeJS.ProcessEnv,
): Promise<ParamSchemaBook> {
  const at = args.findIndex((arg) => arg === '--data-dir' || arg.startsWith('--data-dir='));
  const word = at < 0 ? undefined : args[at];
  const named = word?.startsWith('--data-dir=') ? word.slice('--data-dir='.length) : args[at + 1];
  const dataDir = common(at < 0 || !named ? {} : { 'data-dir': named }, env).dataDir;
  return openedBook(dataDir);
}

/**
 * Where a model's options are asked: its service's kind and address, its model, and the keys the
 * command holds (compare's PICTOR_KEY_<PROVIDER>, the MCP server's own and others'); without
 * `keys`, SERVICE_API_KEY bound to that address (generate, `models show --refresh`).
 */
interface OptionsAt {
  readonly provider: ProviderId;
  readonly baseUrl: string | null;
  readonly model: string;
  readonly keys?: CredentialsProvider;
}

/** The book's first use and refresh, over the fetch a front has (the CLI's, or the core's own). */
type OptionsAsker = Pick<ModelOptions, 'firstUse' | 'refresh'>;

/**
 * The CLI's fetch for the book's asks, which carry the key: behind the local-server gate as every
 * request of the core is (core/download/gated-transports.ts; a loopback server another user of
 * this computer runs is refused unless the library's settings.json allows its address), plain-http
 * servers on this computer through the judged pinned transport, as `openCliCore` asks.
 */
function gatedCliFetch(dataDir: string, env: NodeJS.ProcessEnv): FetchLike {
  const settingsStore = new JsonFileKv(dataDir, 'settings');
  const settings = EditSettings.of({ settingsStore, now: Date.now, logger: silentLogger });
  const given = { fetch: createNodeFetch(env), pinLocalServers: true };
  return gatedTransports(given, () => settings.allowedLocalServers()).fetch;
}

/**
 * A book the CLI opened, asking over the CLI's gated fetch; what comes back is searched for every
 * key `keys` holds (published-schema.ts), not only the one sent.
 */
function askerOf(
  book: ParamSchemaBook,
  env: NodeJS.ProcessEnv,
  keys: CredentialsProvider,
): OptionsAsker {
  const fetch = gatedCliFetch(book.folder, env);
  const reach = { fetch, heldKeys: keys.heldKeys?.bind(keys) };
  return {
    firstUse: (credentials, model) => book.firstUse(reach, credentials, model),
    refresh: (credentials, model) => book.refresh(reach, credentials, model),
  };
}

/** The service's address at `where`. @throws UsageError when it has none. */
function baseUrlAt(where: OptionsAt): string {
  const baseUrl = where.baseUrl ?? PROVIDERS[where.provider].defaultBaseUrl;
  if (baseUrl === null) throw new UsageError('--refresh needs --base-url: the service’s address.');
  return baseUrl;
}

/**
 * The keys the command holds for `where`: `where.keys`, else SERVICE_API_KEY bound to that
 * address.
 */
async function keysAt(where: OptionsAt, env: NodeJS.ProcessEnv): Promise<CredentialsProvider> {
  return where.keys ?? (await EnvCredentials.create(env, baseUrlAt(where), where.provider));
}

/**
 * Who is asked for the options at `where`: the key `keys` holds for that very address and that
 * provider (the key goes to its own origin only: published-schema.ts), else no key.
 */
async function askedAt(where: OptionsAt, keys: CredentialsProvider): Promise<ServiceCredentials> {
  const baseUrl = baseUrlAt(where);
  const keyed = await keys.credentialsFor(baseUrl);
  if (keyed !== null && keyed.provider === where.provider) return keyed;
  return { baseUrl, key: '', keyFingerprint: '', provider: where.provider };
}

/** Only a publishing service is asked: another one's address is never read for a key. */
function publishes(where: OptionsAt): boolean {
  return PUBLISHING_SERVICES.has(where.provider) && where.model !== '';
}

/**
 * A model's first use on a service that publishes its options (none kept yet, fetched or from a
 * file): they are fetched and kept before its options are typed, as the window's form does
 * (`generate` and `compare` before --param, the MCP tools before `params`). Offline or on a
 * fault: the notice saying why and that the options Pictor ships stay in use; null when all went
 * well or nothing was asked.
 */
export async function firstUseNotice(
  options: Pick<ModelOptions, 'firstUse'>,
  where: OptionsAt,
  /** Where SERVICE_API_KEY is read when `where` gives no keys. */
  env: NodeJS.ProcessEnv = {},
): Promise<string | null> {
  if (!publishes(where)) return null;
  const refreshed = await options.firstUse(
    await askedAt(where, await keysAt(where, env)),
    where.model,
  );
  return refreshed === undefined || refreshed.ok
    ? null
    : optionsNotice(refreshed.problem, where.model);
}

/** {@link firstUseNotice} for a command line: the notice on stderr. */
export async function fetchOnFirstUse(
  book: ParamSchemaBook,
  where: OptionsAt,
  io: CliIo,
): Promise<void> {
  if (!publishes(where)) return;
  const keys = await keysAt(where, io.env);
  const notice = await firstUseNotice(askerOf(book, io.env, keys), { ...where, keys }, io.env);
  if (notice !== null) io.stderr(`${notice}\n`);
}

/**
 * Why a model's options were not fetched: the fetch's own sentence says the options Pictor knows
 * stay in use; a fault of the settings (no key, an address refused) is followed by that, so no
 * notice leaves it unsaid.
 */
function optionsNotice(problem: Sentence, model: string): string {
  const said = cliWording(englishText(problem));
  const kept = problem.key.startsWith('error.params.')
    ? ''
    : ` ${englishText(sentence('error.params.shippedInUse', { model }))}`;
  return terminalSafe(said + kept);
}

/** Fetches `model`'s published options on `provider` (at `baseUrl`, or its own address). */
export async function refreshModel(
  book: ParamSchemaBook,
  where: OptionsAt,
  io: CliIo,
): Promise<boolean> {
  const keys = await keysAt(where, io.env);
  const refreshed = await askerOf(book, io.env, keys).refresh(
    await askedAt(where, keys),
    where.model,
  );
  if (!refreshed.ok) {
    io.stderr(`${optionsNotice(refreshed.problem, where.model)}\n`);
    return false;
  }
  return true;
}

/** `models import-schema FILE --model M`: keeps the file's options for `model` on `provider`. */
export async function importSchema(
  book: ParamSchemaBook,
  where: { provider: ProviderId; model: string; file: string },
  io: CliIo,
): Promise<number> {
  const imported = await book.importFile(where.provider, where.model, where.file);
  if (!imported.ok) {
    io.stderr(`${englishText(imported.problem)}\n`);
    return EXIT.failed;
  }
  const names = imported.names.join(', ');
  io.stdout(`${terminalSafe(`${where.provider} ${where.model}: options ${names} kept.`)}\n`);
  return EXIT.ok;
}
