/**
 * The only file that touches `window.pictor`: requests resolve to their value or throw an
 * {@link ApiError} carrying the main process's sentence, events arrive already typed.
 */
import { GALLERY_BASE, galleryUrl, type PictorApi } from '../../shared/ipc/api';
import type {
  EventChannel,
  EventPayload,
  IpcError,
  RequestChannel,
  RequestInput,
  RequestOutput,
  Result,
} from '../../shared/ipc/contract';
import type { CapForecast } from '../../shared/ipc/cost-contract';
import { errorText, t } from '../i18n';

declare global {
  interface Window {
    /** Set by the preload (or a test's fake); absent in a bare browser. */
    pictor?: PictorApi;
  }
}

/** Why a request failed: `message` is a sentence for the user, `detail` is shown on demand. */
export class ApiError extends Error {
  readonly code: IpcError['code'] | 'unavailable';
  readonly detail: string | undefined;
  /** The sentence's catalogue entry, when main sent one (`error.settings.keyStaysWith`…). */
  readonly sentenceKey: string | undefined;
  /** A spending cap's refusal as data, when main refused a submit for one (the form words it). */
  capRefusal: CapForecast | undefined;
  private readonly reword: (() => string) | undefined;

  /** `reword` words the sentence again in the language shown then (see {@link text}). */
  constructor(
    code: ApiError['code'],
    message: string,
    detail?: string,
    reword?: () => string,
    sentenceKey?: string,
  ) {
    super(message);
    this.name = 'ApiError';
    this.code = code;
    this.detail = detail;
    this.reword = reword;
    this.sentenceKey = sentenceKey;
    this.capRefusal = undefined;
  }

  /** The sentence in the language shown now (a message kept on screen follows a new language). */
  text(): string {
    return this.reword?.() ?? this.message;
  }
}

/** Channels whose input is `undefined` may be called without an argument. */
type CallArgs<C extends RequestChannel> =
  undefined extends RequestInput<C> ? [input?: RequestInput<C>] : [input: RequestInput<C>];

function bridge(): PictorApi {
  const api = window.pictor;
  if (!api)
    throw new ApiError('unavailable', t('error.noBridge'), undefined, () => t('error.noBridge'));
  return api;
}

/** Sends a request; resolves its value or throws {@link ApiError} (never a raw IPC error). */
export async function call<C extends RequestChannel>(
  channel: C,
  ...args: CallArgs<C>
): Promise<RequestOutput<C>> {
  let result;
  try {
    // `args` is the channel's one optional input: InvokeArgs<C> in the bridge's own terms.
    const api = bridge();
    const invoke = api.invoke.bind(api) as (
      channel: C,
      input?: unknown,
    ) => Promise<Result<RequestOutput<C>>>;
    result = await invoke(channel, args[0]);
  } catch (error) {
    if (error instanceof ApiError) throw error;
    // A rejected invoke means the bridge itself broke (not a handler's refusal).
    throw new ApiError(
      'unavailable',
      t('error.noBridge'),
      error instanceof Error ? error.message : undefined,
      () => t('error.noBridge'),
    );
  }
  if (result.ok) return result.value;
  const said = result.error;
  const error = new ApiError(
    said.code,
    errorText(said),
    said.detail,
    () => errorText(said),
    said.sentence?.key,
  );
  error.capRefusal = said.capRefusal;
  throw error;
}

/** Subscribes to a main-process event; returns the unsubscribe function. */
export function listen<C extends EventChannel>(
  channel: C,
  listener: (payload: EventPayload<C>) => void,
): () => void {
  const api = window.pictor;
  if (!api) return () => undefined;
  return api.on(channel, listener);
}

/**
 * A sentence as the page's own words: a function that words it in the language shown when it is
 * read (a message kept on screen follows a new language), or a fixed text (main's English when
 * it sent no sentence, a name).
 */
export type Wording = string | (() => string);

/** A failure in the page's own words, worded again in each language shown while it is on screen. */
export function failure(words: Wording, detail?: string): ApiError {
  return typeof words === 'function'
    ? new ApiError('failed', words(), detail, words)
    : new ApiError('failed', words, detail);
}

/**
 * Any thrown value as an ApiError, so the UI always has a sentence to show: an ApiError as is,
 * anything else as `fallback` (or a generic sentence) with its text as the detail. Pass the
 * fallback as a function of the language (`() => t(…)`), not as `t(…)` read once.
 */
export function toApiError(error: unknown, fallback?: Wording): ApiError {
  if (error instanceof ApiError) return error;
  const detail = error instanceof Error ? error.message : undefined;
  return failure(fallback ?? (() => t('error.unexpected')), detail);
}

/** A failure to show: a sentence (in the language shown when read), the detail on demand. */
export interface Problem {
  readonly message: string;
  readonly detail?: string;
}

/** Any thrown value as a {@link Problem} (see {@link toApiError} for `fallback`). */
export function problemOf(error: unknown, fallback?: Wording): Problem {
  const problem = toApiError(error, fallback);
  // A getter, so a problem kept on screen is worded in the language shown at each render.
  const message = {
    get message() {
      return problem.text();
    },
  };
  return problem.detail === undefined
    ? message
    : Object.assign(message, { detail: problem.detail });
}

/** The URL of a gallery file (thumbnail or image) for `<img src>`: from the host's gallery base. */
export function imageUrl(relativePath: string): string {
  return galleryUrl(relativePath, window.pictor?.galleryBase ?? GALLERY_BASE);
}
