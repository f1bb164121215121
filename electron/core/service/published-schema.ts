/**
 * A model's options fetched from where its service publishes them: fal's per-model OpenAPI
 * (public, fetched without the key: `https://fal.ai/api/openapi/queue/openapi.json?endpoint_id=
 * MODEL`, or the same path under a base URL of the user's own) and Replicate's model (`GET
 * /v1/models/OWNER/NAME` under the base URL with the key: its latest version's `openapi_schema`,
 * or `…/versions/ID` for a pinned version). The answer is hostile: its body is streamed with a
 * cap, a redirect is followed only inside the first address's origin (and, with the key, only
 * where the key may go), and the text is read by shared/domain/fetched-param-schema.ts (depth,
 * nodes, `$ref` loops, renderable kinds) once it is searched for every key the process holds
 * (keysToFind, as a task's answers are). Never throws but for the caller's abort: a failure is
 * the sentence that says the options Pictor knows stay in use; an unusable base URL or key is
 * answered with the settings' own sentence (url-policy.ts, request-guard.ts), never thrown.
 */
import { readFetchedSchema, MAX_SCHEMA_CHARS } from '../../../shared/domain/fetched-param-schema';
import type { SchemaSource } from '../../../shared/domain/fetched-param-schema';
import type { ParamSchema } from '../../../shared/domain/model-params';
import { PROVIDERS, type ProviderId } from '../../../shared/domain/providers';
import { sentence, type Sentence } from '../../../shared/i18n/sentence';
import type { ServiceCredentials } from '../../ports/credentials';
import type { FetchLike } from '../../ports/http';
import { discardBody, readBodyText } from './http-response';
import { serviceNameAt } from './key-binding';
import { keyMayGoTo } from './providers/api-origins';
import { profileOf } from './providers/profiles';
import { carriesKey } from '../secrets';
import { keysToFind } from './client-parts';
import { checkCredentials, redactText } from './request-guard';
import { ServiceError } from './service-error';
import { UrlPolicyError, checkBaseUrl } from './url-policy';

/**
 * What a model's options are fetched over: the front's fetch, and every key the process holds
 * (CredentialsProvider.heldKeys). What comes back is searched for each of them (keysToFind, as a
 * task's answers are), not only for the key sent: a hostile service may echo a key it learnt
 * elsewhere into a schema, which would be kept in a file and shown in the window.
 */
export interface SchemaReach {
  readonly fetch: FetchLike;
  readonly heldKeys: (() => Promise<readonly string[]>) | undefined;
}

export type PublishedSchema =
  | { readonly ok: true; readonly schema: ParamSchema }
  | { readonly ok: false; readonly problem: Sentence };

interface SchemaAddress {
  readonly url: string;
  /** Whether the request carries the key (Replicate's API); fal's schema is public. */
  readonly withKey: boolean;
  readonly source: SchemaSource;
}

const FAL_SCHEMA_ORIGIN = 'https://fal.ai';
const FAL_SCHEMA_PATH = '/api/openapi/queue/openapi.json';
/** `owner/name` or `owner/name:version`, as Replicate names a model. */
const REPLICATE_MODEL = /^([A-Za-z0-9_.-]{1,100})\/([A-Za-z0-9_.-]{1,100})(?::([0-9a-f]{8,64}))?$/;
const FAL_MODEL = /^[A-Za-z0-9_.-]{1,100}(\/[A-Za-z0-9_.-]{1,100}){1,4}$/;
const MAX_HOPS = 3;
const TIMEOUT_MS = 30_000;

/** Where `provider` publishes `model`'s schema; undefined where it publishes none. */
function addressOf(
  provider: ProviderId,
  baseUrl: string,
  model: string,
): SchemaAddress | undefined {
  if (provider === 'fal' && FAL_MODEL.test(model) && !model.includes('..')) {
    const own = baseUrl === PROVIDERS.fal.defaultBaseUrl;
    const query = `?endpoint_id=${encodeURIComponent(model)}`;
    const url = `${own ? FAL_SCHEMA_ORIGIN : baseUrl}${FAL_SCHEMA_PATH}${query}`;
    return { url, withKey: false, source: 'fal' };
  }
  const named = provider === 'replicate' ? REPLICATE_MODEL.exec(model) : null;
  if (named === null) return undefined;
  const [, owner = '', name = '', version] = named;
  if (owner.startsWith('.') || name.startsWith('.')) return undefined;
  const tail = version === undefined ? '' : `/versions/${version}`;
  return {
    url: `${baseUrl}/v1/models/${owner}/${name}${tail}`,
    withKey: true,
    source: 'replicate',
  };
}

/** The next address of a redirect, when it may be followed; null: it may not. */
function followed(
  from: string,
  first: string,
  response: Response,
  check: (url: string) => boolean,
): string | null {
  const location = response.headers.get('location');
  if (location === null) return null;
  let next: URL;
  try {
    next = new URL(location, from);
  } catch {
    return null;
  }
  return next.origin === new URL(first).origin && check(next.href) ? next.href : null;
}

/**
 * Fetches and reads `model`'s published options on the credentials' service. A fault of the
 * settings (no key stored for a service whose options need one, an address refused) is an
 * answer with its sentence, like a fault of the fetch: a first use's background fetch on a
 * service without a key is told so, never thrown at the window.
 */
export async function fetchPublishedSchema(
  reach: SchemaReach,
  credentials: ServiceCredentials,
  model: string,
  signal?: AbortSignal,
): Promise<PublishedSchema> {
  try {
    return await fetchChecked(reach, credentials, model, signal);
  } catch (error) {
    // The address is checked first (checkBaseUrl throws its own error), then the key.
    if (error instanceof UrlPolicyError) return { ok: false, problem: error.sentence };
    if (error instanceof ServiceError && error.kind === 'config' && error.sentence) {
      return { ok: false, problem: error.sentence };
    }
    throw error;
  }
}

async function fetchChecked(
  reach: SchemaReach,
  credentials: ServiceCredentials,
  model: string,
  signal?: AbortSignal,
): Promise<PublishedSchema> {
  const provider = credentials.provider ?? 'pictor';
  const baseUrl = checkBaseUrl(credentials.baseUrl);
  const service = serviceNameAt(PROVIDERS[provider], baseUrl);
  const address = addressOf(provider, baseUrl, model);
  if (address === undefined) {
    return { ok: false, problem: sentence('error.params.schemaNotPublished', { service }) };
  }
  // The key is checked (and needed) only where it goes: fal's schema is public.
  const checked = address.withKey ? checkCredentials(credentials) : { baseUrl, key: '' };
  const said = { service, model };
  // What comes back is searched for the key, sent or not (fal's schema is public), and for every
  // other key the process holds: the options are kept in a file and shown in the window, and a
  // redirect's host is named in a sentence.
  const sent = typeof credentials.key === 'string' ? credentials.key.trim() : '';
  const keys = await keysToFind(sent, reach.heldKeys);
  const keyGoes = (url: string): boolean =>
    !address.withKey || keyMayGoTo(url, checked.baseUrl, []);
  const headers: Record<string, string> = {
    Accept: 'application/json',
    ...(address.withKey ? profileOf(provider).authHeaders(checked.key) : {}),
  };
  const timeout = AbortSignal.timeout(TIMEOUT_MS);
  const combined = signal ? AbortSignal.any([signal, timeout]) : timeout;
  try {
    const init = { method: 'GET', headers, redirect: 'manual', signal: combined } as const;
    const answer = await answerOf(reach.fetch, address.url, init, keyGoes);
    if (typeof answer === 'string') {
      return {
        ok: false,
        problem: sentence('error.params.schemaMoved', { ...said, host: redactText(answer, keys) }),
      };
    }
    return await readAnswer(answer, address.source, { said, signal: combined, keys });
  } catch (error) {
    if (signal?.aborted) throw signal.reason;
    // A request the settings refuse on its way (another user's server on this computer:
    // local-server-gate.ts) says why, not "check the connection".
    if (error instanceof ServiceError && error.kind === 'config' && error.sentence) {
      return { ok: false, problem: error.sentence };
    }
    return { ok: false, problem: sentence('error.params.schemaUnreached', said) };
  }
}

/**
 * The answer at `first`, redirects followed inside its origin where `keyGoes`; the host of a
 * redirect that was not followed.
 */
async function answerOf(
  fetch: FetchLike,
  first: string,
  init: RequestInit,
  keyGoes: (url: string) => boolean,
): Promise<Response | string> {
  let url = first;
  for (let hop = 0; ; hop += 1) {
    if (!keyGoes(url)) throw new Error('not where the key goes');
    const response = await fetch(url, init);
    if (response.status < 300 || response.status >= 400) return response;
    discardBody(response);
    const next = hop < MAX_HOPS ? followed(url, first, response, keyGoes) : null;
    if (next === null) return hostOfLocation(response, url);
    url = next;
  }
}

function hostOfLocation(response: Response, from: string): string {
  try {
    return new URL(response.headers.get('location') ?? '', from).host.slice(0, 100);
  } catch {
    return '?';
  }
}

/**
 * The schema in a 200 answer. One whose text carries a key held (in any encoding: key-echo.ts reads
 * it as sent, before the reader cleans it into words a person reads) is not read at all.
 */
async function readAnswer(
  response: Response,
  source: SchemaSource,
  asked: {
    readonly said: { service: string; model: string };
    readonly signal: AbortSignal;
    readonly keys: readonly string[];
  },
): Promise<PublishedSchema> {
  const { said, signal } = asked;
  if (response.status !== 200) {
    discardBody(response);
    return { ok: false, problem: sentence('error.params.schemaUnreached', said) };
  }
  const read = await readBodyText(response, MAX_SCHEMA_CHARS, signal);
  if (read.outcome === 'broken') {
    return { ok: false, problem: sentence('error.params.schemaUnreached', said) };
  }
  // Said apart from an unusable schema: the service sent back a key, which its provider should hear.
  if (carriesKey(read.text, asked.keys)) {
    return { ok: false, problem: sentence('error.params.schemaCarriesKey', said) };
  }
  const whole = read.outcome === 'complete';
  const schema = whole ? readFetchedSchema(read.text, source) : undefined;
  return schema === undefined
    ? { ok: false, problem: sentence('error.params.schemaUnusable', said) }
    : { ok: true, schema };
}
