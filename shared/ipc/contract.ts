/**
 * The one IPC contract between the main process and the renderer: every request channel with
 * its input and output schema, every event from main. The preload's API and the main-process
 * handlers are both typed from this file; every payload is parsed with these schemas at run time.
 * Output schemas are also a whitelist: zod drops any field they do not name. Every schema is
 * built on its first use (lazy-contract.ts): loading the contract builds none.
 */
import { sentenceSchema } from '../i18n/sentence';
import { z } from 'zod';
import { BIDI_CONTROLS, CONTROL_CHARACTERS, LINE_SEPARATORS } from '../text/control-characters';
import { lazySchema } from '../domain/lazy-schema';
import { channel, lazyEntries } from './lazy-contract';
import { gallerySortSchema } from '../domain/gallery-item';
import { keyStatusSchema } from '../domain/key-status';
import { MAX_SEARCH_CHARS } from '../domain/limits';
import { providerIdSchema } from '../domain/providers';
import { serviceIdSchema } from '../domain/service-id';
import { settingsPatchSchema, settingsSchema } from '../domain/settings';
import { taskStatusSchema } from '../domain/task-record';
import { updateStateSchema } from '../domain/update-state';
import type { EVENT_CHANNEL_NAMES, REQUEST_CHANNEL_NAMES } from './channels';
import { capForecastSchema, costEvents, costRequests } from './cost-contract';
import { submitRequests } from './submit-contract';
import { cancelProgressSchema, taskCancelRequests } from './task-cancel-contract';
import { taskChangesSchema } from './task-changes';
import { galleryPageSchema, localIdSchema, taskItemSchema } from './task-item';
import { keyRequests } from './key-contract';
import { serviceRequests } from './service-contract';
import { updateRequests } from './update-contract';
import { triageRequests } from './triage-contract';
import { compareRequests } from './compare-contract';
import { inputRequests } from './inputs-contract';
import { promptRequests } from './prompt-contract';
import { templateRequests } from './template-contract';
import { workflowRequests } from './workflow-contract';
import { modelOptionsRequests } from './model-options-contract';
import {
  galleryBatchRequests,
  gallerySelectionRequests,
  taskBatchRequests,
} from './batch-contract';
import { compareGroupSchema } from '../domain/compare';
import { MAX_SELECT_ALL, count, galleryFilter, imageRef } from './selection-schemas';
import {
  exportSummarySchema,
  importSummarySchema,
  archiveExportInputSchema,
  archiveImportInputSchema,
  archiveProgressSchema,
  MAX_LISTED_REFUSALS,
  refusalSchema,
} from './archive-contract';

export { connectionReportSchema } from './service-contract';
export { MAX_SELECT_ALL };

const localId = lazySchema(() => localIdSchema());
const cursor = lazySchema(() => z.string().max(1_000).nullable().optional());
const search = lazySchema(() => z.string().max(MAX_SEARCH_CHARS).optional());
const none = lazySchema(() => z.undefined());

export type { TaskItem } from './task-item';
export type { TaskChange, TaskLivePart, TaskRefusal } from './task-changes';

/** How far a trash operation is: deleting or bringing back images or tasks. */
const trashProgressSchema = lazySchema(() =>
  z.object({
    operation: z.enum(['delete', 'restore']),
    items: z.enum(['images', 'tasks']),
    done: z.number().int().min(0),
    total: z.number().int().min(0),
  }),
);
export type TrashProgressPayload = z.infer<ReturnType<typeof trashProgressSchema>>;

/** Things main wants the page to say once, by code (the page words them in the user's language). */
const APP_NOTICES = [
  'window_recovered',
  'notifications_failed',
  'thumbnails_unavailable',
  /** The library holds tasks a newer Pictor wrote, which this version does not show. */
  'newer_tasks_kept',
] as const;
export type AppNotice = (typeof APP_NOTICES)[number];

/**
 * The origins (`https://api.example.com`, `http://127.0.0.1:8188`) of the services' saved
 * addresses whose last call could not reach its host while the computer was online (no such
 * host, connection refused, a TLS failure), until one answers again, whatever host the call went
 * to (a BFL region): main's calls find it (core/service/service-reach.ts).
 */
const unreachableOriginsSchema = lazySchema(() => z.array(z.string().max(2_100)).max(256));

const appInfoSchema = lazySchema(() =>
  z.object({
    version: z.string(),
    platform: z.string(),
    /** True while tasks go to the built-in demo service (no key or no base URL set). */
    demo: z.boolean(),
    online: z.boolean(),
    /** {@link unreachableOriginsSchema}: the services main's calls could not reach lately. */
    unreachable: unreachableOriginsSchema().optional(),
    galleryDir: z.string(),
    /** Notices to show once (each is handed out by one `app:getInfo`). */
    notices: z.array(z.enum(APP_NOTICES)).max(APP_NOTICES.length).optional(),
  }),
);
export type AppInfo = z.infer<ReturnType<typeof appInfoSchema>>;

export const MENU_COMMANDS = [
  'new-prompt',
  'show-tasks',
  'show-gallery',
  'show-costs',
  'open-settings',
  'focus-search',
  'triage-view',
  'auto-advance',
  'prompt-history',
] as const;

/** The task list's filter, shared by a page and its count. */
const taskFilterFields = lazySchema(() => ({
  search: search(),
  statuses: z.array(taskStatusSchema()).max(10).optional(),
  favourite: z.boolean().optional(),
  /** Only tasks of this service: a provider's, or `demo` (shared/domain/service-id.ts). */
  provider: serviceIdSchema().optional(),
  /** Only the tasks of this compare group. */
  compareGroup: compareGroupSchema().optional(),
  /** Only tasks made from the prompt template with this id. */
  template: z.uuid().optional(),
}));

/** Request channels: renderer asks, main answers with a {@link Result}. */
/** Pictor task folders in a gallery folder, their files and bytes. */
const libraryFactsSchema = lazySchema(() =>
  z.object({ tasks: count(), files: count(), bytes: count() }),
);
/** A folder main's own dialog returned, held in main under `ticket`: the page never names a path. */
const folderTicket = lazySchema(() => z.string().min(1).max(64));
const folderChoiceSchema = lazySchema(() =>
  z.object({
    ticket: folderTicket(),
    path: z.string(),
    /** What the chosen folder holds (`tasks` 0: no Pictor library there). */
    library: libraryFactsSchema(),
    /** The library now, which a move would carry. */
    current: libraryFactsSchema().extend({ path: z.string() }),
    /** The chosen folder is the library's now, however spelled: main compares them on disk. */
    same: z.boolean(),
  }),
);
export type FolderChoice = z.infer<ReturnType<typeof folderChoiceSchema>>;
/** `library:move` and `library:open` name the picked folder by its ticket alone. */
const folderTicketSchema = lazySchema(() => z.object({ ticket: folderTicket() }).strict());
const folderChangeSchema = lazySchema(() =>
  z.object({
    outcome: z.enum(['moved', 'opened', 'cancelled']),
    /** The gallery folder now. */
    path: z.string(),
    /** Task folders moved, paths left behind (links, FIFOs, not removable), tasks added. */
    moved: count(),
    leftBehind: count(),
    imported: count(),
    /**
     * What opening a library left out and why (its rebuild's skips: a task folder under a name
     * the library cannot hold, a sidecar that could not be read), the first
     * {@link MAX_LISTED_REFUSALS}, and how many in all.
     */
    skipped: z.array(refusalSchema()).max(MAX_LISTED_REFUSALS),
    skippedTotal: count(),
  }),
);
export type FolderChange = z.infer<ReturnType<typeof folderChangeSchema>>;
/** A move's progress: the library it carries, and how much of it is in the new folder. */
const moveProgressSchema = lazySchema(() =>
  libraryFactsSchema().extend({
    tasksDone: count(),
    filesDone: count(),
    bytesDone: count(),
  }),
);

/** One line of text with no control, line-separator or bidirectional character. */
const COPYABLE_TEXT = new RegExp(`^[^${CONTROL_CHARACTERS}${LINE_SEPARATORS}${BIDI_CONTROLS}]*$`);

export const requests = {
  'app:getInfo': channel(() => ({ input: none(), output: appInfoSchema() })),
  'app:openLogs': channel(() => ({ input: none(), output: z.void() })),
  /**
   * Text to the clipboard (a task id, a service's address): the page's own clipboard API is
   * denied with every permission. One line, nothing hidden: a compromised page cannot put a
   * command that runs when pasted into a terminal (its line break), steers the terminal (ESC, a
   * C1 control) or reads otherwise than it runs (bidi). "Copy as command" is main's own
   * (`tasks:copyCommand`).
   */
  'app:copyText': channel(() => ({
    input: z.object({ text: z.string().max(10_000).regex(COPYABLE_TEXT) }).strict(),
    output: z.void(),
  })),
  ...submitRequests,
  'tasks:list': channel(() => ({
    input: z
      .object({
        ...taskFilterFields(),
        limit: z.number().int().min(1).max(500).optional(),
        cursor: cursor(),
      })
      .strict(),
    output: z.object({ items: z.array(taskItemSchema()), nextCursor: z.string().nullable() }),
  })),
  /**
   * How many tasks match a filter. Its own request, so a page is never held back by its count
   * (a word in every one of 100,000 prompts takes ~50 ms to count, the page ~5 ms).
   */
  'tasks:count': channel(() => ({
    input: z.object(taskFilterFields()).strict(),
    output: z.object({ total: z.number().int().min(0) }),
  })),
  /** Every task the filter matches, loaded or not (the Tasks screen's "Select all"; see gallery:selectAll). */
  'tasks:selectAll': channel(() => ({
    input: z.object(taskFilterFields()).strict(),
    output: z.object({ localIds: z.array(localId()).max(MAX_SELECT_ALL), total: count() }),
  })),
  'tasks:get': channel(() => ({
    input: z.object({ localId: localId() }).strict(),
    output: taskItemSchema().nullable(),
  })),
  'tasks:track': channel(() => ({
    input: z
      .object({ taskId: z.string().min(1).max(300), prompt: z.string().max(2_000).optional() })
      .strict(),
    output: taskItemSchema(),
  })),
  'tasks:resume': channel(() => ({
    input: z.object({ localId: localId() }).strict(),
    output: taskItemSchema(),
  })),
  'tasks:retryImages': channel(() => ({
    input: z.object({ localId: localId() }).strict(),
    output: taskItemSchema(),
  })),
  'tasks:remove': channel(() => ({
    input: z.object({ localId: localId() }).strict(),
    output: z.object({ removed: z.boolean() }),
  })),
  ...taskBatchRequests,
  'gallery:list': channel(() => ({
    input: galleryFilter()
      .extend({
        /** The order (default newest first); a cursor continues the order it was made in. */
        sort: gallerySortSchema().optional(),
        /** The page that starts at this image (0 is the first); ignored with a cursor. */
        offset: z.number().int().min(0).max(100_000_000).optional(),
        limit: z.number().int().min(1).max(500).optional(),
        cursor: cursor(),
      })
      .strict(),
    output: galleryPageSchema(),
  })),
  'gallery:models': channel(() => ({ input: none(), output: z.array(z.string()) })),
  /** How many images `gallery:list` would list with these filters (all its pages together). */
  'gallery:count': channel(() => ({
    input: galleryFilter(),
    output: z.number().int().nonnegative(),
  })),
  ...gallerySelectionRequests,
  ...galleryBatchRequests,
  'gallery:reveal': channel(() => ({ input: imageRef(), output: z.void() })),
  'gallery:copyImage': channel(() => ({ input: imageRef(), output: z.void() })),
  'gallery:saveAs': channel(() => ({
    input: imageRef(),
    output: z.object({ savedTo: z.string().nullable() }),
  })),
  'gallery:startDrag': channel(() => ({ input: imageRef(), output: z.void() })),
  'gallery:openFolder': channel(() => ({ input: none(), output: z.void() })),
  /** Settings › Gallery folder › Change: main's dialog, then what the folder holds. */
  'library:pick': channel(() => ({
    input: none(),
    output: z.object({ choice: folderChoiceSchema().nullable() }),
  })),
  /** Moves the library to the picked folder (its ticket from `library:pick`). */
  'library:move': channel(() => ({ input: folderTicketSchema(), output: folderChangeSchema() })),
  /** Opens the library in the picked folder, or starts an empty one there (its ticket). */
  'library:open': channel(() => ({ input: folderTicketSchema(), output: folderChangeSchema() })),
  /**
   * Ends the picked folder's ticket (the user cancelled the question), and cancels a move in
   * progress (before the switch; after it, the move completes).
   */
  'library:cancel': channel(() => ({
    input: none(),
    output: z.object({ cancelling: z.boolean() }),
  })),
  'settings:get': channel(() => ({ input: none(), output: settingsSchema() })),
  'settings:update': channel(() => ({ input: settingsPatchSchema(), output: settingsSchema() })),
  ...keyRequests,
  ...serviceRequests,
  /** Exports the library (or the tasks named) to an archive main asks for in its own save dialog. */
  'archive:export': channel(() => ({
    input: archiveExportInputSchema(),
    output: z.object({ summary: exportSummarySchema().nullable() }),
  })),
  /** Imports an archive or folder main asks for in its own open dialog; null: the user cancelled. */
  'archive:import': channel(() => ({
    input: archiveImportInputSchema(),
    output: z.object({ summary: importSummarySchema().nullable() }),
  })),
  /** Stops the running export or import (what was fully imported stays). */
  'archive:cancel': channel(() => ({
    input: none(),
    output: z.object({ cancelled: z.boolean() }),
  })),
  ...updateRequests,
  ...costRequests,
  ...taskCancelRequests,
  ...triageRequests,
  ...promptRequests,
  ...templateRequests,
  ...workflowRequests,
  ...modelOptionsRequests,
  ...compareRequests,
  ...inputRequests,
} as const;

/** Event channels: main tells, the renderer listens. Each entry builds its schema when first read. */
export const events = lazyEntries({
  /**
   * How tasks changed since the last batch, coalesced per task (task-changes.ts): records, live
   * parts, removals and refused submits, at most every 150 ms.
   */
  'tasks:updated': () => taskChangesSchema(),
  /** How far a gallery move is (about ten times a second at most). */
  'library:progress': () => moveProgressSchema(),
  'gallery:changed': () => z.object({ reason: z.string() }),
  'settings:changed': () => settingsSchema(),
  /** One service's key changed. */
  'keys:changed': () => z.object({ provider: providerIdSchema(), status: keyStatusSchema() }),
  /**
   * The network's facts as they change: the computer went online or offline (`online`, the
   * host's), or the services main could not reach changed (`unreachable`, every such origin now).
   */
  'network:changed': () =>
    z.union([
      z.object({ online: z.boolean() }),
      z.object({ unreachable: unreachableOriginsSchema() }),
    ]),
  'app:demoChanged': () => z.object({ demo: z.boolean() }),
  'menu:command': () => z.object({ command: z.enum(MENU_COMMANDS) }),
  /** A notice to show once (also handed out by the next `app:getInfo` when no page listened). */
  'app:notice': () => z.object({ notice: z.enum(APP_NOTICES) }),
  /** How far the running library export or import has come. */
  'archive:progress': () => archiveProgressSchema(),
  'updates:changed': () => updateStateSchema(),
  /** How far a delete or an Undo is (a few times a second at most, and at its end). */
  'trash:progress': () => trashProgressSchema(),
  /** The app waits to quit until the operation under way ends (bounded); null: it no longer waits. */
  'app:quitting': () => z.object({ waitingFor: trashProgressSchema().nullable() }),
  /** How many of a selection's images an export copied (about fifty reports, and its last). */
  'export:progress': () => trashProgressSchema().pick({ done: true, total: true }),
  /** How many of a selection's cancels the services answered (each one as it is answered). */
  'tasks:cancelProgress': () => cancelProgressSchema(),
  ...costEvents,
} as const);

export type RequestChannel = keyof typeof requests;
export type EventChannel = keyof typeof events;
export type RequestInput<C extends RequestChannel> = z.input<(typeof requests)[C]['input']>;
export type RequestOutput<C extends RequestChannel> = z.infer<(typeof requests)[C]['output']>;
export type EventPayload<C extends EventChannel> = z.infer<(typeof events)[C]>;

/** Compile-time proof that channels.ts names exactly the contract's channels, no more, no fewer. */
type Same<A, B> = [A] extends [B] ? ([B] extends [A] ? true : false) : false;
const requestNamesMatch: Same<(typeof REQUEST_CHANNEL_NAMES)[number], RequestChannel> = true;
const eventNamesMatch: Same<(typeof EVENT_CHANNEL_NAMES)[number], EventChannel> = true;
void requestNamesMatch;
void eventNamesMatch;

/** Why a request did not produce a value. */
const IPC_ERROR_CODES = ['bad_input', 'forbidden', 'failed', 'not_found'] as const;
export const ipcErrorSchema = lazySchema(() =>
  z.object({
    code: z.enum(IPC_ERROR_CODES),
    /** A sentence for the user. */
    message: z.string(),
    /** Technical detail, shown on demand. Never a secret. */
    detail: z.string().optional(),
    /** The message as a catalogue sentence: the window shows it in its own language. */
    sentence: sentenceSchema().optional(),
    /** A spending cap's refusal as data (core/costs/cap-check.ts): the window words it itself. */
    capRefusal: capForecastSchema().optional(),
  }),
);
export type IpcError = z.infer<ReturnType<typeof ipcErrorSchema>>;

/** What every request resolves to: handlers never throw across IPC (Electron keeps only `message`). */
export type Result<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly error: IpcError };
