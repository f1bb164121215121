/**
 * The core's parts built from its options alone, beside pictor-core.ts (which assembles them):
 * the service client, the input sender, the cost book, the prompt history's user changes, the
 * images a front hands to the OS, and the keys the scrubbers read.
 */
import type { ClosingGate } from './base';
import { type Gallery, type OutgoingFile, outgoingFile, saveImageCopy } from './gallery';
import { CostBook } from './costs';
import type { HistoryPort, HistoryStore, PromptHistory } from './history';
import { InputSender, type InputSettings, type InputStore, UploadMemory } from './inputs';
import { heldKeyScrubberOrNone, keptIdScrubberOf } from './secrets';
import { ServiceClient, type ServiceReach } from './service';
import type { ImageIntake } from './download';
import type { PictorCoreOptions } from './pictor-core-options';

/**
 * Saved images a front hands to the OS (Save as, Copy image, a drag out), each as it may leave
 * (gallery/outgoing-file.ts: a copy without a held key's metadata, in the gallery's temp folder).
 * Each is a user's ask of the core's closing gate: refused ("Pictor is closing") from the close's
 * first moment, nothing made or written; one asked before is waited for by the close, its copy
 * made, used and removed within it. A dialog that chooses where (Save as's) is asked before, by
 * the front, outside the gate: a quit never waits on a dialog the user has open.
 */
export interface OutgoingImages {
  /** Runs `use` with `file` (inside the gallery) as it may leave; its copy removed after. */
  lend<T>(file: string, use: (file: string) => Promise<T>): Promise<T>;
  /**
   * Save as: `choose` asks where (a dialog, outside the gate) with the scrubber of the keys held
   * now (its suggested name is made from the prompt scrubbed); `file`, as it may leave judged by
   * that same scrubber, is then copied there (gallery/image-copy.ts). The keys are read once: the
   * file is read only after the answer (an image removed or replaced meanwhile is judged by the
   * bytes copied), and a key entered while the dialog was open is one the user entered after
   * asking for the copy, as if it had been saved a moment before. The file chosen, or null when
   * the user cancelled (nothing copied).
   */
  saveCopy(
    file: string,
    choose: (scrub: ((text: string) => string) | null) => Promise<string | null>,
  ): Promise<string | null>;
  /**
   * A drag out: `start` begins it with `file` as it may leave (throwing when it could not). The
   * drop reads the file after `start` returned and Electron tells main nothing of its end, and the
   * user drags one image at a time: its copy is kept until the next drag begins, removed at once
   * when this one could not begin, and at the core's close (a quit); what a crash leaves, the
   * next start's sweep of the temp folder removes.
   */
  dragOut(file: string, start: (file: string) => Promise<void>): Promise<void>;
}

/** The outgoing images, and the removal of the last drag's copy (the core's close calls it). */
function outgoingImagesOf(
  gallery: Pick<Gallery, 'root'>,
  scrubber: () => Promise<((text: string) => string) | null>,
  gate: Pick<ClosingGate, 'ask'>,
): { readonly images: OutgoingImages; readonly releaseDragged: () => Promise<void> } {
  type Scrub = Awaited<ReturnType<typeof scrubber>>;
  const leaving = async (file: string, scrub?: Scrub) =>
    outgoingFile(gallery.root, file, scrub === undefined ? await scrubber() : scrub);
  /** The copy the last drag handed out. */
  let dragged: OutgoingFile | null = null;
  /** `use` given `file` as it may leave (judged by `scrub`, else the keys held now). */
  const lent = <T>(file: string, use: (file: string) => Promise<T>, scrub?: Scrub): Promise<T> =>
    gate.ask(async () => {
      const out = await leaving(file, scrub);
      try {
        return await use(out.file);
      } finally {
        await out.release();
      }
    });
  const images: OutgoingImages = {
    lend: (file, use) => lent(file, use),
    saveCopy: async (file, choose) => {
      const scrub = await scrubber();
      const target = await choose(scrub);
      if (target === null) return null;
      await lent(file, (out) => saveImageCopy(gallery.root, out, target), scrub);
      return target;
    },
    dragOut: (file, start) =>
      gate.ask(async () => {
        const out = await leaving(file);
        const before = dragged;
        dragged = out;
        await before?.release();
        try {
          await start(out.file);
        } catch (error) {
          if (dragged === out) {
            dragged = null;
            await out.release();
          }
          throw error;
        }
      }),
  };
  const releaseDragged = async () => {
    const last = dragged;
    dragged = null;
    await last?.release();
  };
  return { images, releaseDragged };
}

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

/**
 * What of the core leaves it (`parts`): its scrubbers (PictorCore's keptIdScrubber and
 * outgoingScrubber), the images a front hands to the OS (PictorCore.outgoingImages), judged with
 * the second, and the gallery folder a front opens (PictorCore.galleryFolder); and, for the core's
 * close alone, the removal of the last drag's copy.
 */
export function leavingPartsOf(
  options: PictorCoreOptions,
  gallery: Pick<Gallery, 'root' | 'ensureRoot'>,
  gate: Pick<ClosingGate, 'ask'>,
) {
  const outgoingScrubber = () => heldKeyScrubberOrNone(heldKeysOf(options));
  const outgoing = outgoingImagesOf(gallery, outgoingScrubber, gate);
  return {
    parts: {
      keptIdScrubber: keptIdScrubberOf(heldKeysOf(options)),
      outgoingScrubber,
      outgoingImages: outgoing.images,
      galleryFolder: () => gate.ask(() => gallery.ensureRoot()),
    },
    releaseDragged: outgoing.releaseDragged,
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
