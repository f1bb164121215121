/**
 * The core's parts built from its options alone, beside pictor-core.ts (which assembles them):
 * the service client, the input sender, the cost book, the prompt history's user changes, and the
 * keys the scrubbers read.
 */
import type { ClosingGate } from './base';
import { CostBook } from './costs';
import type { HistoryPort, HistoryStore, PromptHistory } from './history';
import { InputSender, type InputSettings, type InputStore, UploadMemory } from './inputs';
import { heldKeyScrubberOrNone, keptIdScrubberOf } from './secrets';
import { ServiceClient, type ServiceReach } from './service';
import type { ImageIntake } from './download';
import type { PictorCoreOptions } from './pictor-core-options';

/** What the cost book is over: the history, its worker (the sums), the core's closing gate. */
interface CostParts {
  readonly history: HistoryStore;
  readonly historyWorker: HistoryPort;
  readonly gate: ClosingGate;
}

/** The prompt history as a front reaches it: its list, and the user's pins, Forget and Clear. */
export type PromptChanges = Pick<PromptHistory, 'list' | 'pin' | 'forget' | 'clear'>;

/**
 * The prompt history's user changes (a pin, Forget, Clear), each refused once the core's close has
 * begun, nothing written. A submit's own note (asked with the submit) and an import's or a
 * rebuild's (the engine's work) pass by the history itself.
 */
export function promptChangesOf(prompts: PromptHistory, gate: ClosingGate): PromptChanges {
  return {
    list: (query, limit) => prompts.list(query, limit),
    pin: (prompt, pinned) => gate.askNow(() => prompts.pin(prompt, pinned)),
    forget: (prompt) => gate.askNow(() => prompts.forget(prompt)),
    clear: () => gate.askNow(() => prompts.clear()),
  };
}

/**
 * What tasks cost, in the user's time zone (the host's unless the options name one); the Costs
 * screen's sums are read in the history worker.
 */
export function costsOf(parts: CostParts, options: PictorCoreOptions): CostBook {
  const { history, historyWorker, gate } = parts;
  return new CostBook({
    history,
    gate,
    sums: (read) => historyWorker.call('costSums', read),
    now: () => options.clock.now(),
    ...(options.timeZone === undefined ? {} : { timeZone: options.timeZone }),
    keyScrubber: () => heldKeyScrubberOrNone(heldKeysOf(options)),
  });
}

/**
 * The keys the core's credentials hold, for the scrubbers of what leaves it (core/secrets/
 * held-key-scrub.ts: they read them once known).
 */
export function heldKeysOf({ credentials }: PictorCoreOptions) {
  return credentials.heldKeys?.bind(credentials);
}

/** The core's scrubbers of what leaves it (PictorCore's keptIdScrubber and outgoingScrubber). */
export function scrubbersOf(options: PictorCoreOptions) {
  return {
    keptIdScrubber: keptIdScrubberOf(heldKeysOf(options)),
    outgoingScrubber: () => heldKeyScrubberOrNone(heldKeysOf(options)),
  };
}

/** What sends tasks' input images: from the store, inline or uploaded (remembered in the data folder). */
export function inputSenderOf(
  store: InputStore,
  settings: () => InputSettings,
  options: PictorCoreOptions,
): InputSender {
  return new InputSender({
    store,
    fetch: options.fetch,
    now: () => options.clock.now(),
    settings,
    memory: new UploadMemory(options.dataDir, () => options.clock.now()),
    heldKeys: options.credentials.heldKeys?.bind(options.credentials),
    ...(options.resolve ? { resolve: options.resolve } : {}),
    ...(options.signedFetch ? { signedFetch: options.signedFetch } : {}),
  });
}

/** The service client: an image sent inline is held to the same cap as a downloaded one. */
export function clientOf(
  intake: ImageIntake,
  options: PictorCoreOptions,
  reach: ServiceReach,
): ServiceClient {
  return new ServiceClient({
    fetch: options.fetch,
    reach,
    clock: options.clock,
    maxInlineImageBytes: intake.maxImageBytes,
    // Every key the credentials hold, searched for in each answer besides the one it sent.
    heldKeys: options.credentials.heldKeys?.bind(options.credentials),
    answers: options.answers,
    requestTimeoutMs: options.requestTimeoutMs,
  });
}
