/**
 * Builds the core from its ports: history, gallery, service client and task engine over one data
 * folder. The CLI, the Electron main process and the end-to-end harness all start Pictor here.
 */
import { rmSync } from 'node:fs';
import { join } from 'node:path';
import { type Logger, silentLogger } from '../ports/logger';
import { ClosingGate } from './base';
import { engineFiles, TaskEngine } from './engine';
import { ensurePrivateFolder } from './fs';
import { Gallery } from './gallery';
import { gatedTransports, IdleRelease, ImageIntake, PendingThumbnails } from './download';
import { FolderChoices, Library } from './library';
import { HISTORY_FILE, HistoryPort, HistoryStore, writingInWorker } from './history';
import { triageInWorker, userWritesInWorker } from './history';
import { libraryReadsIn, type LibraryReads, type WritingHistory } from './history';
import { CoreOperations } from './operations';
import { type ServiceClient, ServiceReach } from './service';
import { heldKeyScrubber, heldKeyScrubberOrNone } from './secrets';
import type { ContentCredentialVerifier } from '../ports/content-credential-verifier';
import { openFairVerifier } from './content-credentials';
import type { CostBook } from './costs';
import {
  TRASH_JOURNAL_DIR,
  TrashJournal,
  TrashOperations,
  type TrashOperationsOptions,
} from './trash';
import { Boards, SmartBoards, TriageActions } from './triage';
import { keptTemplates, sourceOf, type TemplateStore } from './templates';
import { noSystemTrash } from '../ports/system-trash';
import { InputStore } from './inputs';
import { type EditInputs, editInputsOf } from './edit';
import { BatchTaskActions, type MetadataWriter, metadataWriter } from './batch';
import { TaskCancels, TemplateRuns } from './batch';
import { EditSettings } from './settings';
import { WorkflowBook } from './workflows';
import { openModelOptions, type ModelOptions } from './param-schemas';
import type { PictorCoreOptions } from './pictor-core-options';
import { clientOf, costsOf, heldKeysOf, inputSenderOf } from './pictor-core-parts';
import { type PromptChanges, promptChangesOf, leavingPartsOf } from './pictor-core-parts';
import type { OutgoingImages } from './pictor-core-parts';

export { HISTORY_FILE };
export type { PictorCoreOptions };
const FIRST_GENERATION_LOCK = 'pictor.lock';

/** What a saved image names as Pictor's version when the host did not give one. */
export const UNKNOWN_VERSION = 'unknown';

export interface PictorCore {
  readonly history: HistoryStore;
  /** The gallery's reads of every image (a count, the models), in the history worker. */
  readonly libraryReads: LibraryReads;
  /** The folder as storage: task folders, sidecars, paths inside it. */
  readonly gallery: Gallery;
  /** How images come into the gallery: downloads, inline images, thumbnails, checks. */
  readonly intake: ImageIntake;
  readonly client: ServiceClient;
  /** Whether each service answered the client's last call to it (service-reach.ts). */
  readonly serviceReach: ServiceReach;
  readonly engine: TaskEngine;
  /** The ComfyUI workflows imported as models (`pictor comfy import`), one checked file each. */
  readonly workflows: WorkflowBook;
  /** The models' options fetched or given, kept in the data folder (core/param-schemas). */
  readonly paramSchemas: ModelOptions;
  /** Makes the thumbnails left pending (the app runs it each time it shows the gallery). */
  readonly thumbnails: PendingThumbnails;
  /** Where the library lives: moving or opening it elsewhere changes this core's folder in place. */
  readonly library: Library;
  /** The folders a front's dialog chose, kept behind tickets until a move or an open uses one. */
  readonly folderChoices: FolderChoices;
  /**
   * The long operations (library move and rebuild, archive export and import, image copies), one
   * at a time per kind, with a stop signal and throttled progress: the app's and the CLI's.
   */
  readonly operations: CoreOperations;
  /**
   * "Write metadata to files" (core/batch/write-metadata.ts), the app's and the CLI's: refused
   * once the close has begun; one under way stops before its next image as the close begins
   * (the files written stay written), and the close waits for that stop.
   */
  readonly writeMetadata: MetadataWriter;
  /**
   * What tasks cost: prices, spending caps, the ledger and its CSV. Every submit of the engine is
   * priced and checked against the caps as it is stored.
   */
  readonly costs: CostBook;
  /**
   * Deletes and removals with Undo, journaled in the data folder; it follows every change of the
   * library's folder. A front that deletes replays it once at start (`trash.replay()`): what a
   * quit, crash or kill left under way is finished first.
   */
  readonly trash: TrashOperations;
  /** Ratings, flags, tags and board membership of many images at once, with Undo. */
  readonly triage: TriageActions;
  /** The boards' tree: create, rename, move, delete. */
  readonly boards: Boards;
  /** Smart boards: saved filters by name, their rules checked, and the rules a list runs. */
  readonly smartBoards: SmartBoards;
  /** Prompt templates and word lists, copied into the library folder after every change. */
  readonly templates: TemplateStore;
  /**
   * The prompt history as the window reaches it: a pin, Forget or Clear is refused once the close
   * has begun (`history.prompts` itself is the submits' and imports' own).
   */
  readonly prompts: PromptChanges;
  /** Input images, by digest, in the library folder's `inputs/` (they move with it). */
  readonly inputs: InputStore;
  /** The images an edit is made of, kept in {@link inputs} (the app's `inputs:` and `edit:` channels). */
  readonly editInputs: EditInputs;
  /** Cancels of running tasks, one at a time, each waited for (bounded by the core's clock). */
  readonly cancels: TaskCancels;
  /** Stars and favourites of many tasks or images at once. */
  readonly batchActions: BatchTaskActions;
  /** A prompt template's tasks: planned, priced and submitted as one batch. */
  readonly templateRuns: TemplateRuns;
  /** The input settings an edit reads ("never upload inputs", the consents), and a new consent. */
  readonly editSettings: EditSettings;
  /**
   * The scrubber of every key the process holds when task id `taskId` carries one, else null: a
   * file of such a task leaves the app without it (gallery/outgoing-file.ts).
   */
  readonly keptIdScrubber: (taskId: string | null) => Promise<((text: string) => string) | null>;
  /**
   * The scrubber of every key the process holds, or null when it holds none: every image file
   * that leaves the app (Save as, Copy image, a drag out, an agent's get_image; the gallery
   * protocol judges the same way) is judged by its own bytes with it, whatever its task's id: an
   * image saved before downloads were searched, or before the key it echoes was entered, carries
   * it in its metadata as a kept key-carrying id's packet does (gallery/outgoing-file.ts).
   */
  readonly outgoingScrubber: () => Promise<((text: string) => string) | null>;
  /**
   * Saved images a front hands to the OS (Save as's copy, Copy image, a drag out), as they may
   * leave (judged with {@link outgoingScrubber}): refused once the close has begun, one asked
   * before waited for.
   */
  readonly outgoingImages: OutgoingImages;
  /**
   * The gallery folder, made again when it is gone, for a front to open ("Open gallery folder":
   * the front only opens the path): a user's ask of the closing gate, refused once the close has
   * begun, so a folder being put away at quit is not made again.
   */
  readonly galleryFolder: () => Promise<string>;
  /**
   * Stops the engine (ids kept, its tasks' leases ended so another process may carry on), closes
   * the history. From its first moment a user's change is refused ("Pictor is closing"); once it
   * resolves, no file of the core is being written, and none is started after (its closing gate).
   */
  close(): Promise<void>;
}

export async function openPictorCore(options: PictorCoreOptions): Promise<PictorCore> {
  const logger = options.logger ?? silentLogger;
  // 0700: the history says what the user generated; other local users may exist.
  await ensurePrivateFolder(options.dataDir);
  // The first generation's one-process lock: nothing takes it any more (SQLite's own locks let
  // the app and any number of CLI commands share the folder).
  rmSync(join(options.dataDir, FIRST_GENERATION_LOCK), { force: true });
  let history: HistoryStore | undefined;
  const { clock, contentCredentials: given, credentials } = options;
  const verifier = await openFairVerifier({ clock, logger, ...(given ? { given } : {}) });
  // The heavy reads and writes of the history, off main's thread (core/history/history-port.ts).
  const historyWorker = new HistoryPort(join(options.dataDir, HISTORY_FILE), options.historyPort);
  try {
    history = HistoryStore.open(historyWorker.file, {
      logger,
      checkpointPast: historyWorker.mainCheckpointPast,
    });
    const now = () => options.clock.now();
    const editSettings = EditSettings.of({ ...options, now, logger });
    // Every request of the core first refuses a loopback server another user runs (Linux).
    const gated = gatedTransports(options, () => editSettings.allowedLocalServers());
    const gallery = new Gallery({
      root: options.galleryDir,
      logger,
      now,
      appVersion: options.appVersion ?? UNKNOWN_VERSION,
    });
    const intake = new ImageIntake(gallery, {
      ...gated,
      logger,
      imageEngine: options.imageEngine,
      credentials: verifier,
      imageMetadata: { appVersion: options.appVersion ?? UNKNOWN_VERSION },
      ...(options.maxImageBytes === undefined ? {} : { maxImageBytes: options.maxImageBytes }),
      now,
      idleRelease: IdleRelease.ofProcess(logger),
      keyScrubber: () => heldKeyScrubberOrNone(heldKeysOf(options)),
    });
    // The worker started and warmed meanwhile (HistoryPort.warm): the first change after the
    // open does not pay for its start and a cold write.
    await Promise.all([gallery.init(), historyWorker.warm()]);
    // Every writer of the core passes it; the close closes it (core/base/closing-gate.ts).
    const gate = new ClosingGate();
    const inputs = new InputStore(gallery, gate);
    const opened = {
      history,
      historyWorker,
      gallery,
      intake,
      inputs,
      verifier,
      editSettings,
      gate,
    };
    // The models' options: a refresh, a file's, a first use pass the gate as every change does.
    const paramSchemas = await openModelOptions(options.dataDir, gated.fetch, credentials, gate);
    return { ...assemble(opened, { ...options, ...gated }, logger), paramSchemas };
  } catch (error) {
    await historyWorker.dispose();
    history?.close();
    await verifier.dispose();
    throw error;
  }
}

/** What {@link openPictorCore} opened before the rest is assembled over it. */
type Opened = Pick<PictorCore, 'history' | 'gallery' | 'intake' | 'inputs' | 'editSettings'> & {
  verifier: ContentCredentialVerifier;
  historyWorker: HistoryPort;
  gate: ClosingGate;
};

type Assembled = Omit<PictorCore, 'paramSchemas'>;

/** The core's parts over its opened history and gallery; `close` ends them in order. */
function assemble(opened: Opened, options: PictorCoreOptions, logger: Logger): Assembled {
  const { history, historyWorker, gallery, intake, inputs, verifier, editSettings, gate } = opened;
  // An import's and a rebuild's writes run in the history worker (history-writes.ts).
  const writing = writingInWorker(history, historyWorker);
  const serviceReach = new ServiceReach(logger);
  const client = clientOf(intake, options, serviceReach);
  const costs = costsOf(opened, options);
  const workflows = new WorkflowBook(options.dataDir, gate);
  const engine = new TaskEngine({
    client,
    inputs: inputSenderOf(inputs, () => editSettings.now(), options),
    history,
    sharing: history,
    admission: costs,
    removals: history,
    // The trash's writes (a removal, an image to the trash, their Undo) in the history worker.
    userWrites: userWritesInWorker(history, historyWorker),
    gallery: engineFiles(gallery, intake, gate),
    // "Generate into" a board the library has none of: made as `boards` makes any (its checks,
    // its limits, its sentences).
    boards: { ensure: (path) => boards.ensure(path) },
    workflows,
    prompts: history.prompts,
    credentials: options.credentials,
    clock: options.clock,
    // A submit or a tracked id asked once the close has begun: refused, nothing stored or sent.
    gate,
    logger,
    ...(options.engine ? { options: options.engine } : {}),
  });
  const thumbnails = new PendingThumbnails({
    history,
    records: engine,
    make: (image) => gate.write(() => intake.makeThumbnail(image)),
    imageEngine: options.imageEngine,
    logger,
  });
  const parts = { history, gallery, intake, inputs, editSettings, client, engine, thumbnails };
  const library = libraryOf({ ...parts, history: writing }, options, logger);
  const triageDeps = { engine, triage: history.triage, now: () => options.clock.now(), gate };
  const boards: Boards = new Boards(triageDeps);
  const templates = keptTemplates(history.templates, gallery, { ...triageDeps, logger });
  const { parts: leaving, releaseDragged } = leavingPartsOf(options, gallery, gate);
  // `close` names the assembly itself, not `this`: a caller may call it apart from the core.
  const assembled: Assembled = {
    ...parts,
    serviceReach,
    // A one-command host (inThread) pages no gallery: no walk of its first order.
    libraryReads: libraryReadsIn(historyWorker, history.positions, !options.historyPort?.inThread),
    costs,
    library,
    trash: trashOf({ engine, gallery, library, gate }, options, logger),
    // The triage commit and its Undo are written in the history worker (history-writes.ts).
    triage: new TriageActions({ ...triageDeps, writes: triageInWorker(history, historyWorker) }),
    boards,
    smartBoards: new SmartBoards(triageDeps),
    templates,
    prompts: promptChangesOf(history.prompts, gate),
    folderChoices: new FolderChoices(options.clock),
    workflows,
    editInputs: editInputsOf({ ...options, ...parts }),
    ...batchPartsOf({ engine, costs, templates, gate, gallery }, options, logger),
    operations: operationsOf({ ...parts, templates, history: writing, gate }, options),
    ...leaving,
    close: () => closeInOrder({ ...assembled, historyWorker, verifier, gate }, releaseDragged),
  };
  return assembled;
}

/** What the core's close ends, in order. */
type Closing = Assembled & Pick<Opened, 'historyWorker' | 'verifier' | 'gate'>;

/** Ends the core's parts in order (PictorCore.close); `releaseDragged` removes the last drag's copy. */
async function closeInOrder(parts: Closing, releaseDragged: () => Promise<void>) {
  // From the close's first moment (this runs as `close` is called), new changes are refused
  // ("Pictor is closing"): deletes, removals, ratings, the model options' refreshes. Those asked
  // before end while the history is open (a removal said done is written), then the trash's queue.
  await parts.gate.refuseAsks();
  await parts.trash.close();
  // The last triage writes' tasks announced (their sidecars asked for) before the engine stops.
  await Promise.all([parts.triage.settled(), parts.thumbnails.stop()]);
  await parts.engine.stop();
  // A write asked for since the engine's last ones (a handler still at work) ends now, or is
  // refused: none starts once the close has resolved (a quit leaves no half-done temp file).
  await parts.gate.close();
  // The last drag's copy: its drop read it long before a quit (a drag the quit ended has no drop).
  await releaseDragged();
  parts.intake.dispose();
  await parts.historyWorker.dispose();
  parts.history.close();
  await parts.verifier.dispose();
}

/**
 * The actions over many tasks: cancels, stars and favourites, a template's batch, metadata
 * written into the images' files.
 */
function batchPartsOf(
  parts: Pick<PictorCore, 'engine' | 'costs' | 'templates' | 'gallery'> & Pick<Opened, 'gate'>,
  options: PictorCoreOptions,
  logger: Logger,
): Pick<PictorCore, 'cancels' | 'batchActions' | 'templateRuns' | 'writeMetadata'> {
  const { engine, costs, templates, gate, gallery } = parts;
  return {
    cancels: new TaskCancels(engine, options.clock, gate),
    batchActions: new BatchTaskActions(engine, gate),
    templateRuns: new TemplateRuns({ templates: sourceOf(templates), costs, engine }),
    writeMetadata: metadataWriter({ records: engine, gallery, logger }, gate),
  };
}

/** Parts of the core with the history an import and a rebuild write through (writingInWorker). */
type Writing<K extends keyof PictorCore> = Pick<PictorCore, K> & {
  readonly history: WritingHistory;
};

/** The long operations: one at a time per kind, with a stop signal and throttled progress. */
function operationsOf(
  parts: Writing<'gallery' | 'intake' | 'engine' | 'templates'> & Pick<Opened, 'gate'>,
  options: PictorCoreOptions,
): CoreOperations {
  return new CoreOperations({
    gate: parts.gate,
    templates: parts.templates,
    history: parts.history,
    gallery: parts.gallery,
    intake: parts.intake,
    records: parts.engine,
    clock: options.clock,
    ...(options.progressEveryMs === undefined ? {} : { progressEveryMs: options.progressEveryMs }),
    keyScrubber: () => heldKeyScrubber(heldKeysOf(options)),
    outgoingScrubber: () => heldKeyScrubberOrNone(heldKeysOf(options)),
  });
}

/** Deletes and removals with Undo, journaled in the data folder, following the library. */
function trashOf(
  core: TrashOperationsOptions['core'],
  options: PictorCoreOptions,
  logger: Logger,
): TrashOperations {
  return new TrashOperations({
    journal: new TrashJournal(join(options.dataDir, TRASH_JOURNAL_DIR), logger),
    core,
    sendToSystemTrash: options.systemTrash ?? noSystemTrash,
    logger,
  });
}

/** Where the core's library lives, changed in place (moved, or opened elsewhere). */
function libraryOf(
  parts: Writing<'gallery' | 'intake' | 'engine' | 'thumbnails'>,
  options: PictorCoreOptions,
  logger: Logger,
): Library {
  return new Library({
    dataDir: options.dataDir,
    ...parts,
    logger,
    now: () => options.clock.now(),
    keyScrubber: () => heldKeyScrubber(heldKeysOf(options)),
    ...(options.libraryFaults ? { faults: options.libraryFaults } : {}),
    ...(options.libraryFolder ? { folderRecord: options.libraryFolder } : {}),
  });
}
