/**
 * The core's long operations, the same for the app's IPC handlers and the CLI's commands: a move
 * or an open of the library and a rebuild of its history (kind `folder`), an export or an import
 * of an archive (kind `archive`), a copy of chosen images into a folder (kind `images`). Each runs
 * on the one {@link OperationRunner}: one at a time per kind (a second move, rebuild, export or
 * import is refused while one runs; image copies wait their turn; a change of the library's folder
 * never beside an export or import: {@link APART}), with a stop signal and its progress throttled
 * on the clock. A front says what to run, where its progress goes and when to stop it; it keeps no
 * state of its own.
 */
import { sentence } from '../../../shared/i18n/sentence';
import type { Clock } from '../../ports/clock';
import { exportChosenImages, exportImages, type ExportOutcome } from '../batch';
import type { Gallery, ImageRef } from '../gallery';
import type { ImageIntake } from '../download';
import {
  exportLibrary,
  type ExportSummary,
  type GalleryMoveHooks,
  type GalleryTasksAdded,
  importGalleryTasks,
  importLibrary,
  type ImportSummary,
  type KeptIdScrubber,
  type LibraryProgress,
  type MoveProgress,
} from '../library';
import type { TemplateStore } from '../templates';
import type { HistoryStore, ManyRecordWrites } from '../history';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { type ClosingGate, type Operation, OperationRunner, type RunOptions } from '../base';

export type OperationKind = 'folder' | 'archive' | 'images';

const KINDS = {
  folder: sentence('error.gallery.moveRunning'),
  archive: sentence('error.library.busy'),
  images: 'queue',
} as const;

/**
 * A move, open or rebuild of the library and an export or import never run side by side: an
 * import writes task folders into the folder it began in (a move that has planned its copy
 * leaves them behind, and after the switch they are outside the library), and an export reads
 * from the folder it began in (a move removes those files once it has switched). Each is refused
 * with the sentence of the one under way.
 */
const APART: readonly (readonly [OperationKind, OperationKind])[] = [['folder', 'archive']];

/**
 * A file or folder given (the CLI's argument), or asked for once the operation has its turn (the
 * app's own dialog; null when the user chose none).
 */
export type Chosen = string | (() => Promise<string | null>);

export interface ArchiveExport {
  readonly target: Chosen;
  /** Only these tasks (local ids); absent: every task. */
  readonly localIds?: readonly string[];
  readonly pictorVersion: string;
  /** Replace the target if it exists (the app's save dialog asked); otherwise it is refused. */
  readonly overwrite?: boolean;
}

/** How far a copy of images is: images done (copied or not) of those to copy. */
export interface ExportProgress {
  readonly done: number;
  readonly total: number;
}

/** Images to copy: every saved image of whole tasks, or single images of tasks. */
export type ImageSelection =
  { readonly localIds: readonly string[] } | { readonly images: readonly ImageRef[] };

/** What an export or an import is given by the runner: its stop signal and its progress. */
interface ArchiveSteps {
  readonly signal: AbortSignal;
  readonly onProgress: (progress: LibraryProgress) => void;
}

/** What a move or an open of the library is given by the runner: its stop signal and progress. */
export type FolderChangeHooks = Required<Pick<GalleryMoveHooks, 'signal' | 'onProgress'>>;

/** What a rebuild added: tasks, and templates and word lists from the folder's copy. */
export interface RebuildSummary extends GalleryTasksAdded {
  readonly templates: number;
  readonly wordLists: number;
}

const NO_TEMPLATES = { templates: 0, wordLists: 0 };

export interface CoreOperationsDeps {
  /** Its writes of many records (import, rebuild) may run in the history worker. */
  readonly history: Pick<
    HistoryStore,
    'get' | 'getMany' | 'getByTaskId' | 'list' | 'count' | 'newerTaskIds' | 'textWithNewerFields'
  > &
    ManyRecordWrites;
  readonly gallery: Pick<Gallery, 'root' | 'resolve'>;
  /** How found and imported images are checked (a rebuild's, an import's). */
  readonly intake: Pick<ImageIntake, 'root' | 'maxPixels' | 'checkImage' | 'credentialsContext'>;
  /** Records with the engine's live state (the images an export copies). */
  readonly records: { get(localId: string): TaskRecord | undefined };
  readonly clock: Clock;
  /** What a rebuild restores the templates from: the copy in the library folder. */
  readonly templates?: Pick<TemplateStore, 'restoreBackup'>;
  /** Least time between two progress reports passed on; default the runner's. */
  readonly progressEveryMs?: number;
  /**
   * The scrubber of every key the process holds: an import and a rebuild redact them from a task
   * id (archive/import-kept-id.ts).
   */
  readonly keyScrubber?: () => Promise<KeptIdScrubber>;
  /**
   * The scrubber of every key the process holds, null when none (PictorCore.outgoingScrubber): an
   * export to a folder judges each image's own bytes with it, as Save as does.
   */
  readonly outgoingScrubber?: () => Promise<((text: string) => string) | null>;
  /**
   * The core's closing gate: an operation asked once the close has begun is refused with its
   * sentence, nothing run; one under way or waiting its turn is stopped by the close (its signal
   * aborts) and the close waits for it to stop; absent: never refused.
   */
  readonly gate?: Pick<ClosingGate, 'ask' | 'closing'>;
}

export class CoreOperations {
  private readonly runner: OperationRunner<OperationKind>;

  constructor(private readonly deps: CoreOperationsDeps) {
    this.runner = new OperationRunner({
      clock: deps.clock,
      kinds: KINDS,
      apart: APART,
      ...(deps.progressEveryMs === undefined ? {} : { progressEveryMs: deps.progressEveryMs }),
    });
  }

  /**
   * Moves or opens the library elsewhere: `change` (the host's: the library, with the steps it
   * takes around it) runs as the one folder operation, with the runner's signal and progress.
   */
  changeFolder<T>(
    change: (hooks: FolderChangeHooks) => Promise<T>,
    options: RunOptions<MoveProgress> = {},
  ): Promise<T> {
    return this.run<T, MoveProgress>(
      'folder',
      ({ signal, report }) =>
        change({ signal, onProgress: (p) => report(p, p.tasksDone === p.tasks) }),
      options,
    );
  }

  /**
   * Adds to the history the tasks the gallery's sidecars describe (`pictor rebuild`), and the
   * templates and word lists the folder's copy holds that the history lacks.
   */
  rebuild(options: RunOptions<never> = {}): Promise<RebuildSummary> {
    return this.run(
      'folder',
      async ({ signal }) => {
        const tasks = await importGalleryTasks(this.deps, signal);
        const restored = (await this.deps.templates?.restoreBackup()) ?? NO_TEMPLATES;
        return { ...tasks, templates: restored.templates, wordLists: restored.wordLists };
      },
      options,
    );
  }

  /** Writes the tasks (all, or the ones named) to a ZIP archive; null when no file was chosen. */
  exportArchive(
    request: ArchiveExport,
    options: RunOptions<LibraryProgress> = {},
  ): Promise<ExportSummary | null> {
    return this.archive(request.target, options, (target, steps) =>
      exportLibrary({
        root: this.deps.gallery.root,
        history: this.deps.history,
        target,
        ...(request.overwrite ? { overwrite: true } : {}),
        ...(request.localIds ? { localIds: request.localIds } : {}),
        pictorVersion: request.pictorVersion,
        ...steps,
        ...(this.deps.keyScrubber ? { keyScrubber: this.deps.keyScrubber } : {}),
      }),
    );
  }

  /**
   * Imports a ZIP archive or a folder into the library; null when none was chosen. `beforeTask`
   * is awaited before each task starts: the command line's test build only (import-library.ts).
   */
  importArchive(
    source: Chosen,
    options: RunOptions<LibraryProgress> & {
      readonly beforeTask?: (done: number) => Promise<void>;
    } = {},
  ): Promise<ImportSummary | null> {
    const { beforeTask, ...run } = options;
    return this.archive(source, run, (from, steps) =>
      importLibrary({
        intake: this.deps.intake,
        history: this.deps.history,
        source: from,
        ...steps,
        ...(beforeTask ? { beforeTask } : {}),
        ...(this.deps.keyScrubber ? { keyScrubber: this.deps.keyScrubber } : {}),
      }),
    );
  }

  /**
   * Copies the selection's saved images into `folder` (main's own dialog chose it), reporting
   * after each image how many of them are done (throttled like every run's progress).
   */
  exportImages(
    selection: ImageSelection,
    folder: string,
    options: RunOptions<ExportProgress> = {},
  ): Promise<ExportOutcome> {
    return this.run<ExportOutcome, ExportProgress>(
      'images',
      async ({ signal, report }) => {
        const scrub = await this.deps.keyScrubber?.();
        const keyMetadata = await this.deps.outgoingScrubber?.();
        const deps = {
          signal,
          ...(scrub ? { scrub } : {}),
          ...(keyMetadata ? { keyMetadata } : {}),
          get: (localId: string) => this.deps.records.get(localId),
          gallery: this.deps.gallery,
          onProgress: (done: number, total: number) => report({ done, total }, done === total),
        };
        return 'images' in selection
          ? exportChosenImages(deps, selection.images, folder)
          : exportImages(deps, selection.localIds, folder);
      },
      options,
    );
  }

  /**
   * Runs `work` on the runner through the core's closing gate: refused once the close has begun;
   * its stop signal joined to the close's, so a run under way or waiting stops as the close
   * begins (a move removes what it copied, an import keeps the tasks it finished, the rest is
   * asked again at the next start), and the close waits for that stop.
   */
  private run<T, P = never>(
    kind: OperationKind,
    work: (operation: Operation<P>) => Promise<T>,
    options: RunOptions<P>,
  ): Promise<T> {
    const { gate } = this.deps;
    if (!gate) return this.runner.run(kind, work, options);
    const signal = options.signal ? AbortSignal.any([options.signal, gate.closing]) : gate.closing;
    return gate.ask(() => this.runner.run(kind, work, { ...options, signal }));
  }

  /** Stops the operation of `kind` under way; false when none runs. */
  cancel(kind: OperationKind): boolean {
    return this.runner.cancel(kind);
  }

  /**
   * Runs `work` on the chosen file as the one archive operation: the file is chosen once the
   * operation has its turn (a dialog open counts as running), null when none was chosen or the
   * operation was cancelled meanwhile.
   */
  private archive<T>(
    choose: Chosen,
    options: RunOptions<LibraryProgress>,
    work: (file: string, steps: ArchiveSteps) => Promise<T>,
  ): Promise<T | null> {
    return this.run<T | null, LibraryProgress>(
      'archive',
      async ({ signal, report }) => {
        const file = await chosen(choose);
        if (file === null || signal.aborted) return null;
        return work(file, { signal, onProgress: (p) => report(p, p.done === p.total) });
      },
      options,
    );
  }
}

async function chosen(what: Chosen): Promise<string | null> {
  return typeof what === 'string' ? what : what();
}
