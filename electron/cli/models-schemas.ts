/**
 * The models' options Pictor did not ship, on the command line: `models show MODEL --refresh`
 * fetches the schema the model's service publishes (fal's OpenAPI, without the key; Replicate's
 * model, with SERVICE_API_KEY, to its own address only) and keeps it in the library's book of
 * model options (core/param-schemas); `models import-schema FILE --model M [--provider P]` keeps
 * the options given in a small JSON schema file for a service that publishes none (the seed's
 * own). Both read what they got as hostile (shared/domain/fetched-param-schema.ts). A failure says
 * its sentence and leaves the options Pictor knew in use.
 */
import { PUBLISHING_SERVICES } from '../../shared/domain/fetched-param-schema';
import { PROVIDERS, type ProviderId } from '../../shared/domain/providers';
import { englishText, sentence, type Sentence } from '../../shared/i18n/sentence';
import { createNodeFetch } from '../adapters/node-fetch';
import { UsageError } from '../core/command-line';
import { openParamSchemaBook, type ParamSchemaBook } from '../core/param-schemas';
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
 * A model's first use on a service that publishes its options (none kept yet, fetched or from a
 * file): they are fetched and kept before the command types its options, as the window's form
 * does. Offline or on a fault, the notice says why and that the options Pictor ships stay in use.
 */
export async function fetchOnFirstUse(
  book: ParamSchemaBook,
  where: { provider: ProviderId; baseUrl: string; model: string },
  io: CliIo,
): Promise<void> {
  if (!PUBLISHING_SERVICES.has(where.provider) || where.model === '') return;
  if (book.lookup(where.provider, where.model) !== undefined) return;
  await refreshModel(book, where, io);
}

/**
 * Why a model's options were not fetched, on stderr: the fetch's own sentence says the options
 * Pictor knows stay in use; a fault of the settings (no key, an address refused) is followed by
 * that, so no notice leaves it unsaid.
 */
function optionsNotice(problem: Sentence, model: string): string {
  const said = cliWording(englishText(problem));
  const kept = problem.key.startsWith('error.params.')
    ? ''
    : ` ${englishText(sentence('error.params.shippedInUse', { model }))}`;
  return `${terminalSafe(said + kept)}\n`;
}

/** Fetches `model`'s published options on `provider` (at `baseUrl`, or its own address). */
export async function refreshModel(
  book: ParamSchemaBook,
  where: { provider: ProviderId; baseUrl: string | null; model: string },
  io: CliIo,
): Promise<boolean> {
  const baseUrl = where.baseUrl ?? PROVIDERS[where.provider].defaultBaseUrl;
  if (baseUrl === null) throw new UsageError('--refresh needs --base-url: the service’s address.');
  const credentials = await EnvCredentials.create(io.env, baseUrl, where.provider);
  const endpoint = credentials.namedBaseUrl ?? baseUrl;
  const keyed = await credentials.credentialsFor(endpoint);
  const asked = keyed ?? {
    baseUrl: endpoint,
    key: '',
    keyFingerprint: '',
    provider: where.provider,
  };
  const refreshed = await book.refresh(createNodeFetch(io.env), asked, where.model);
  if (!refreshed.ok) {
    io.stderr(optionsNotice(refreshed.problem, where.model));
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
