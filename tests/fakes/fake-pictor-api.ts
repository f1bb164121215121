/**
 * For fault injection, and for pages that cannot run main: an in-memory `window.pictor` whose
 * channels a test can make fail, hold back or answer itself, with events sent on cue and states a
 * fresh task never reaches. Every contract channel over in-memory records, inputs and outputs
 * parsed with the contract's schemas (like the real bridge). Browser-safe: imports only shared/
 * and zod (the screenshot and bench pages run it in a browser, where main cannot run).
 *
 * A renderer test of a plain flow runs over the app's real wiring instead
 * (tests/support/wired-api.ts: `startWiredApp`, the gallery's `wiredGallery`, one main per file
 * with tests/unit/renderer/shared-wired-main.ts); the record builders are in
 * tests/support/task-records.ts. A test left here says in a comment why main could not do it.
 */
import type { GalleryItem } from '../../shared/domain/gallery-item';
import { withTaskFavourite } from '../../shared/domain/favourites';
import { hasContentCredentials } from '../../shared/domain/content-credentials';
import type { LiveState } from '../../shared/domain/live-state';
import type { KeyStatus } from '../../shared/domain/key-status';
import { DEFAULT_SETTINGS, type Settings } from '../../shared/domain/settings';
import {
  PROVIDERS,
  PROVIDER_IDS,
  perProvider,
  providerOf,
  type ProviderId,
} from '../../shared/domain/providers';
import type { ImageRecord, TaskRecord } from '../../shared/domain/task-record';
import { recordTarget, type SubmitTarget } from '../../shared/domain/submit-target';
import { savedAddress } from '../support/own-address';
import { requestCommands } from '../../electron/core/service/request-command';
import type { GenerationRequest } from '../../shared/service/wire';
import { canRetry, canSubmitAgain } from '../../shared/domain/task-actions';
import { SEED_START, makeTask } from '../support/task-records';
import { FakeCosts } from './fake-costs';
import { FakeTriage } from './fake-triage';
import { FakePrompts } from './fake-prompts';
import { FakeTemplates } from './fake-templates';
import { FakeCompare } from './fake-compare';
import { FakeInputs } from './fake-inputs';
import { GALLERY_BASE, type PictorApi } from '../../shared/ipc/api';
import {
  events,
  requests,
  type AppInfo,
  type EventChannel,
  type EventPayload,
  type IpcError,
  type RequestChannel,
  type RequestInput,
  type RequestOutput,
  type Result,
  type TaskItem,
} from '../../shared/ipc/contract';

type Handler<C extends RequestChannel> = (
  input: RequestInput<C>,
) => RequestOutput<C> | Promise<RequestOutput<C>>;
type Handlers = { [C in RequestChannel]: Handler<C> };

function newestFirst(a: TaskRecord, b: TaskRecord): number {
  if (a.createdAt !== b.createdAt) return b.createdAt - a.createdAt;
  return a.localId < b.localId ? 1 : a.localId > b.localId ? -1 : 0;
}

/** A stand-in fingerprint (the real one is SHA-256 based; tests only need it stable). */
function fakeFingerprint(key: string): string {
  let hash = 0x811c9dc5;
  for (const char of key) hash = Math.imul(hash ^ char.charCodeAt(0), 0x01000193) >>> 0;
  return hash.toString(16).padStart(8, '0').repeat(2).slice(0, 12);
}

/** What main says when today's contract has no address to check a key at. */
const NO_ADDRESS_TO_CHECK: RequestOutput<'service:testConnection'> = {
  ok: false,
  outcome: 'not_tested',
  message:
    'Enter your service’s address above first: the key is tested and stored for that address. The built-in demo service needs no key.',
};

/** A channel the fake no longer models: its tests run over the real main instead. */
function notInTheFake(): never {
  throw new Error('Not in the fake: this runs over the real main (render-wired-app.tsx).');
}

export class FakePictorApi implements PictorApi {
  /** As in the app; screenshot pages may point it at a local server. */
  galleryBase = GALLERY_BASE;
  /** Every request, in order. */
  readonly calls: Array<{ channel: RequestChannel; input: unknown }> = [];
  settings: Settings = { ...DEFAULT_SETTINGS };
  info: AppInfo = {
    version: '0.1.0',
    platform: 'linux',
    demo: true,
    online: true,
    galleryDir: '/home/ada/Pictures/Pictor',
  };
  /** How the fake OS stores secrets: `weak` makes keys:set ask for consent. */
  storage = { backend: 'gnome_libsecret', weak: false };
  keyStatus: KeyStatus = {
    state: 'not_set',
    fingerprint: null,
    backend: 'gnome_libsecret',
    weak: false,
    message: 'No API key is set, so Pictor uses its built-in demo service.',
  };
  /** The other services' key statuses (absent: not set); `keyStatus` is today's contract's. */
  serviceKeys: Partial<Record<ProviderId, KeyStatus>> = {};
  connection: RequestOutput<'service:testConnection'> = {
    ok: true,
    outcome: 'accepted',
    message: 'The service answered: your key works.',
  };
  /**
   * What a key's service answers to the check Save makes (`keys:set`), for every service: accepted
   * unless a test says otherwise (today's contract without an address: never asked, as main).
   */
  keyCheck: RequestOutput<'service:testConnection'> = {
    ok: true,
    outcome: 'accepted',
    message: 'The service at the service’s address answered and accepted the key.',
  };
  /** What "Test connection" of another service answers. */
  serviceConnection: RequestOutput<'service:testService'> = {
    ok: true,
    outcome: 'accepted',
    message: 'The service at the service’s address answered and accepted the key.',
  };
  /** What the folder picker answers (null: the user cancelled). */
  chosenFolder: string | null = '/home/ada/Images/Pictor';
  /** What the chosen folder holds, as `library:pick` reports it (tasks 0: no library). */
  chosenLibrary = { tasks: 0, files: 0, bytes: 0 };
  now: () => number = () => Date.now();
  /** The last text copied with app:copyText. */
  clipboard: string | null = null;
  /** What `updates:*` answer (a test sets it and emits `updates:changed`; see callsTo). */
  updates: RequestOutput<'updates:getState'> = {
    status: 'unavailable',
    reason: 'development',
    canInstall: false,
  };

  private tasks: TaskRecord[] = [];
  /** The cost ledger, prices and caps (`costs:` channels). */
  readonly costs = new FakeCosts(
    () => this.tasks,
    (version) => this.emit('costs:changed', { version }),
  );
  /** Ratings, flags, tags and boards (`triage:` and `boards:` channels). */
  readonly triage = new FakeTriage({
    records: () => this.tasks,
    record: (localId) => this.byId.get(localId),
    setImages: (localId, images) => void this.updateTask(localId, { images }),
    now: () => this.now(),
  });
  /** The prompt history (`prompts:` channels); the fake's submit notes each prompt. */
  readonly prompts = new FakePrompts();
  /** The prompt templates (`templates:` channels); a run submits through `tasks:submit`. */
  readonly templates = new FakeTemplates({
    submit: (input) => this.handlers['tasks:submit'](input) as TaskItem[],
    now: () => this.now(),
  });
  /** Compare groups (`compare:` channels): `leaveOut`, `warnings`, `refusal` script the plan. */
  readonly compare = new FakeCompare({
    records: () => this.tasks,
    addTasks: (records) => this.addTasks(records),
    item: (record) => this.item(record),
    nextLocalId: () => this.nextLocalId(),
    now: () => this.now(),
  });
  /** Images as inputs (`inputs:`, `edit:`, `images:stack`): see FakeInputs for what a test scripts. */
  readonly inputs = new FakeInputs({
    addTasks: (records) => this.addTasks(records),
    item: (record) => this.item(record),
    nextLocalId: () => this.nextLocalId(),
    now: () => this.now(),
  });
  private readonly byId = new Map<string, TaskRecord>();
  private readonly live = new Map<string, LiveState>();
  private readonly failures = new Map<RequestChannel, { error: IpcError; times: number }>();
  private readonly listeners = new Map<EventChannel, Set<(payload: never) => void>>();
  private readonly overrides: Partial<Handlers> = {};
  private seq = 0;

  // ---- PictorApi ----

  async invoke<C extends RequestChannel>(
    channel: C,
    ...args: [input?: RequestInput<C>]
  ): Promise<Result<RequestOutput<C>>> {
    const input = args[0];
    this.calls.push({ channel, input });
    const failure = this.failures.get(channel);
    if (failure && failure.times > 0) {
      failure.times -= 1;
      return { ok: false, error: failure.error };
    }
    const spec = requests[channel];
    const parsed = spec.input.safeParse(input);
    if (!parsed.success) {
      const message = 'The request was not understood.';
      return { ok: false, error: { code: 'bad_input', message, detail: parsed.error.message } };
    }
    try {
      const handler = (this.overrides[channel] ?? this.handlers[channel]) as Handler<C>;
      const value = await handler(parsed.data as RequestInput<C>);
      return { ok: true, value: spec.output.parse(value) as RequestOutput<C> };
    } catch (error) {
      const message = error instanceof Error ? error.message : String(error);
      return { ok: false, error: { code: 'failed', message } };
    }
  }

  on<C extends EventChannel>(channel: C, listener: (payload: EventPayload<C>) => void): () => void {
    const set = this.listeners.get(channel) ?? new Set();
    set.add(listener as (payload: never) => void);
    this.listeners.set(channel, set);
    return () => set.delete(listener as (payload: never) => void);
  }

  // ---- test helpers ----

  /** Sends an event to the page (parsed with the contract's schema first). */
  emit<C extends EventChannel>(channel: C, payload: EventPayload<C>): void {
    const parsed = events[channel].parse(payload) as never;
    for (const listener of this.listeners.get(channel) ?? []) listener(parsed);
  }

  /** How many listeners an event has (the page subscribes once). */
  listenerCount(channel: EventChannel): number {
    return this.listeners.get(channel)?.size ?? 0;
  }

  /** Makes the next `times` requests on `channel` fail with `error`. */
  fail(
    channel: RequestChannel,
    error: Partial<IpcError> & { message: string },
    times = Infinity,
  ): void {
    this.failures.set(channel, { error: { code: 'failed', ...error }, times });
  }

  /** Replaces a channel's behaviour (e.g. a submit that answers only when the test says so). */
  handle<C extends RequestChannel>(channel: C, handler: Handler<C>): void {
    (this.overrides as Record<string, unknown>)[channel] = handler;
  }

  /** The channel's own behaviour, under any {@link handle} override (a wrapper calls it). */
  own<C extends RequestChannel>(channel: C): Handler<C> {
    return this.handlers[channel] as Handler<C>;
  }

  callsTo<C extends RequestChannel>(channel: C): Array<RequestInput<C>> {
    return this.calls
      .filter((call) => call.channel === channel)
      .map((call) => call.input as RequestInput<C>);
  }

  /** Adds `count` tasks, newest first one minute apart; `build(i)` customises task i. */
  seedTasks(
    count: number,
    build: (index: number) => Partial<TaskRecord> & { prompt?: string } = () => ({}),
  ): TaskRecord[] {
    const made: TaskRecord[] = [];
    for (let index = 0; index < count; index += 1) {
      const createdAt = SEED_START - index * 60_000;
      made.push(
        makeTask({
          localId: `seed-${String(index).padStart(6, '0')}`,
          taskId: `task-${index}`,
          createdAt,
          prompt: `Prompt number ${index}`,
          ...build(index),
        }),
      );
    }
    this.addTasks(made);
    return made;
  }

  addTasks(records: readonly TaskRecord[]): void {
    for (const record of records) this.byId.set(record.localId, record);
    this.tasks = [...this.byId.values()].sort(newestFirst);
  }

  task(localId: string): TaskRecord | undefined {
    return this.byId.get(localId);
  }

  /** Changes a task as the engine would and emits it (`tasks:updated`, a batch of one). */
  updateTask(localId: string, patch: Partial<TaskRecord>, live: LiveState | null = null): TaskItem {
    const current = this.byId.get(localId);
    if (!current) throw new Error(`No task ${localId}`);
    const next = { ...current, ...patch, updatedAt: Math.max(current.updatedAt + 1, this.now()) };
    this.byId.set(localId, next);
    // In place: a change keeps the task's place (the order is by creation), and copying the
    // whole list per change would make the fake, not the page, the cost the ui bench measures.
    const at = this.tasks.findIndex((record) => record.localId === localId);
    if (at >= 0) this.tasks[at] = next;
    if (live) this.live.set(localId, live);
    else this.live.delete(localId);
    const item = this.item(next);
    this.emit('tasks:updated', [{ change: 'task', ...item }]);
    return item;
  }

  // ---- channel behaviour ----

  private item(record: TaskRecord): TaskItem {
    return { record, live: this.live.get(record.localId) ?? null };
  }

  private nextLocalId(): string {
    this.seq += 1;
    return `new-${String(this.seq).padStart(4, '0')}`;
  }

  /** As main does: the library moves (or the one there opens), then the setting changes. */
  private changeFolder(action: 'move' | 'open'): RequestOutput<'library:move'> {
    const path = this.chosenFolder ?? '';
    this.settings = { ...this.settings, galleryDir: path };
    this.emit('settings:changed', this.settings);
    const moved = action === 'move' ? this.tasks.length : 0;
    const imported = action === 'open' ? this.chosenLibrary.tasks : 0;
    const outcome = action === 'move' ? ('moved' as const) : ('opened' as const);
    return { outcome, path, moved, leftBehind: 0, imported };
  }

  private refreshDemo(): void {
    const demo = this.keyStatus.state !== 'ready' || savedAddress(this.settings) === '';
    if (demo === this.info.demo) return;
    this.info = { ...this.info, demo };
    this.emit('app:demoChanged', { demo });
  }

  private setKeyStatus(status: KeyStatus): KeyStatus {
    this.keyStatus = status;
    this.emit('keys:changed', { provider: 'pictor', status });
    this.refreshDemo();
    return status;
  }

  /** A service's key status, as main's `keys:getStatuses` has it. */
  private serviceKeyStatus(provider: ProviderId): KeyStatus {
    if (provider === 'pictor') return this.keyStatus;
    return (
      this.serviceKeys[provider] ?? {
        state: 'not_set',
        fingerprint: null,
        backend: this.storage.backend,
        weak: this.storage.weak,
        message: null,
      }
    );
  }

  private setServiceKey(provider: ProviderId, status: KeyStatus): KeyStatus {
    if (provider === 'pictor') return this.setKeyStatus(status);
    this.serviceKeys = { ...this.serviceKeys, [provider]: status };
    this.emit('keys:changed', { provider, status });
    return status;
  }

  /**
   * What storing `key` for today's contract gives, as main's vault has it (nothing is stored):
   * refused until the user agrees to weak storage, else stored, bound to the base URL set now.
   */
  private pictorKeyStatus(key: string, allowWeakStorage: boolean): KeyStatus {
    const { backend, weak } = this.storage;
    if (weak && !allowWeakStorage) {
      const message =
        'This computer protects saved secrets only with Chromium’s basic text store, which is effectively plain text.';
      return {
        state: 'needs_consent',
        fingerprint: this.keyStatus.fingerprint,
        backend,
        weak: true,
        message,
      };
    }
    const message = weak
      ? 'Your key is stored with Chromium’s basic text store, as you agreed.'
      : null;
    // As main does: the key is bound to the base URL set now (or to none), without /v1.
    const own = savedAddress(this.settings);
    const url = URL.canParse(own) ? new URL(own) : null;
    const baseUrl = url ? `${url.origin}${url.pathname.replace(/(\/+v1)?\/*$/, '')}` : null;
    return {
      state: 'ready',
      fingerprint: fakeFingerprint(key.trim()),
      backend,
      weak,
      message,
      baseUrl,
    };
  }

  /**
   * Save, as main does it: the storage's consent first, then the service's check (skipped when
   * the user said so), then the key stored with what the check said, bound to its address.
   */
  private saveKey(input: RequestInput<'keys:set'>): RequestOutput<'keys:set'> {
    const { provider, key, allowWeakStorage, skipCheck } = input;
    const storing = this.pictorKeyStatus(key, allowWeakStorage);
    if (storing.state !== 'ready') return { outcome: 'storage', status: storing };
    if (skipCheck !== true) {
      const unaddressed = provider === 'pictor' && savedAddress(this.settings).trim() === '';
      const report = unaddressed ? NO_ADDRESS_TO_CHECK : this.keyCheck;
      if (report.outcome === 'key_refused') return { outcome: 'refused', report };
      if (report.outcome !== 'accepted') return { outcome: 'unchecked', report };
    }
    const check = skipCheck === true ? null : { outcome: 'accepted' as const, at: this.now() };
    const baseUrl =
      provider === 'pictor'
        ? storing.baseUrl
        : (this.settings.serviceBaseUrls[provider] ?? PROVIDERS[provider].defaultBaseUrl);
    return {
      outcome: 'saved',
      status: this.setServiceKey(provider, { ...storing, baseUrl, check }),
    };
  }

  private matching(input: RequestInput<'tasks:count'>): TaskRecord[] {
    return this.tasks.filter(
      (record) =>
        matchesWords(record.request.prompt, input.search) &&
        (!input.statuses || input.statuses.includes(record.status)) &&
        (input.favourite === undefined || record.favourite === input.favourite) &&
        (input.provider === undefined || providerOf(record) === input.provider),
    );
  }

  private list(input: RequestInput<'tasks:list'>): RequestOutput<'tasks:list'> {
    const matching = this.matching(input);
    const start = input.cursor
      ? matching.findIndex((record) => record.localId === input.cursor) + 1
      : 0;
    const page = matching.slice(start, start + (input.limit ?? 50));
    const last = page[page.length - 1];
    const more = start + page.length < matching.length;
    return {
      items: page.map((record) => this.item(record)),
      nextCursor: more && last ? last.localId : null,
    };
  }

  private gallery(input: RequestInput<'gallery:list'>): RequestOutput<'gallery:list'> {
    const all = this.galleryMatches(input);
    if (input.sort === 'oldest') all.reverse();
    // As main's order: prompt with ASCII case ignored (SQLite's NOCASE), then newest first.
    const folded = (text: string) => text.replace(/[A-Z]/g, (c) => c.toLowerCase());
    if (input.sort === 'prompt') {
      all.sort((a, b) =>
        folded(a.prompt) < folded(b.prompt) ? -1 : folded(a.prompt) > folded(b.prompt) ? 1 : 0,
      );
    }
    // As main's: a cursor names the last image listed (not a position), so images deleted or
    // added before it do not shift the next page.
    const limit = input.limit ?? 100;
    const start = input.cursor ? this.afterCursor(all, input.cursor) : (input.offset ?? 0);
    const page = all.slice(start, start + limit);
    const last = page.at(-1);
    const more = start + page.length < all.length;
    const localIds = new Set(page.map((item) => item.localId));
    const records = this.tasks
      .filter((record) => localIds.has(record.localId))
      .map((record) => ({ record, live: null }));
    return { items: page, nextCursor: more && last ? galleryCursorOf(last) : null, records };
  }

  /** Where the page after `cursor` starts in `all` (listed in the cursor's order). */
  private afterCursor(all: readonly GalleryItem[], cursor: string): number {
    const key = JSON.stringify(orderKey(JSON.parse(cursor) as GalleryItem));
    const keys = all.map((item) => JSON.stringify(orderKey(item)));
    const at = keys.indexOf(key);
    if (at >= 0) return at + 1;
    // The cursor's image left the list: the next page starts at what followed it.
    const { createdAt, localId, index } = JSON.parse(cursor) as GalleryItem;
    const after = all.findIndex(
      (item) =>
        item.createdAt < createdAt ||
        (item.createdAt === createdAt &&
          (item.localId < localId || (item.localId === localId && item.index > index))),
    );
    return after < 0 ? all.length : after;
  }

  /** Every image the filters match, newest task first. */
  private galleryMatches(input: RequestInput<'gallery:count'>): GalleryItem[] {
    const all: GalleryItem[] = [];
    for (const record of this.tasks) {
      if (!matchesWords(record.request.prompt, input.search)) continue;
      if (input.model !== undefined && record.request.model !== input.model) continue;
      if (input.provider !== undefined && providerOf(record) !== input.provider) continue;
      if (
        (input.from !== undefined && record.createdAt < input.from) ||
        (input.to !== undefined && record.createdAt > input.to)
      )
        continue;
      for (const image of record.images) {
        if (input.states ? !input.states.includes(image.state) : image.state === 'deleted')
          continue;
        if (input.favourite !== undefined && image.favourite !== input.favourite) continue;
        if (!this.triage.matches(image, input)) continue;
        if (
          input.contentCredentials !== undefined &&
          hasContentCredentials(image.contentCredentials) !== input.contentCredentials
        )
          continue;
        all.push({
          localId: record.localId,
          taskId: record.taskId,
          index: image.index,
          image,
          prompt: record.request.prompt,
          createdAt: record.createdAt,
          ...pick(record.request),
          ...(record.reportedModel === undefined ? {} : { reportedModel: record.reportedModel }),
          ...(record.provider === undefined ? {} : { provider: record.provider }),
        });
      }
    }
    return all;
  }

  /** Images deleted and not undone yet, as they were: Undo puts them back, as main's trash does. */
  private readonly heldForUndo = new Map<string, ImageRecord>();
  /** Tasks removed a moment ago, for `tasks:undoRemove`. */
  private readonly removedForUndo = new Map<string, TaskRecord>();

  private deleteHeld(ref: { localId: string; index: number }): TaskItem {
    const image = this.byId.get(ref.localId)?.images.find((each) => each.index === ref.index);
    if (image?.state !== 'saved') throw new Error('This image is not on disk.');
    this.heldForUndo.set(`${ref.localId}/${String(ref.index)}`, image);
    return this.editImage(ref, { state: 'deleted' });
  }

  /** A gallery batch as main runs it: each image in turn, failures counted. */
  private imageBatch(
    refs: readonly { localId: string; index: number }[],
    act: (ref: { localId: string; index: number }) => TaskItem,
  ): { items: TaskItem[]; failed: number; problem?: string } {
    const items = new Map<string, TaskItem>();
    let failed = 0;
    let problem: string | undefined;
    for (const ref of refs) {
      try {
        const item = act(ref);
        items.set(item.record.localId, item);
      } catch (error) {
        failed += 1;
        problem ??= (error as Error).message;
      }
    }
    return { items: [...items.values()], failed, ...(problem ? { problem } : {}) };
  }

  private editImage(
    ref: { localId: string; index: number },
    patch: Partial<ImageRecord>,
  ): TaskItem {
    const record = this.byId.get(ref.localId);
    if (!record) throw new Error('This task is no longer in the history.');
    const images = record.images.map((image) =>
      image.index === ref.index ? { ...image, ...patch } : image,
    );
    const item = this.updateTask(ref.localId, { images });
    this.emit('gallery:changed', { reason: 'image' });
    return item;
  }

  /** A batch action: `act` on each known distinct id; unknown ids and null answers are skipped. */
  private batch(
    localIds: readonly string[],
    act: (record: TaskRecord) => TaskItem | null,
  ): { items: TaskItem[]; skipped: number } {
    const ids = [...new Set(localIds)];
    const items = ids
      .map((localId) => this.byId.get(localId))
      .map((record) => (record ? act(record) : null))
      .filter((item): item is TaskItem => item !== null);
    return { items, skipped: ids.length - items.length };
  }

  /** New tasks of `requests` in order, as main stores one submit of them (one batch of several). */
  private submitted(requests: readonly GenerationRequest[], target: SubmitTarget): TaskItem[] {
    const now = this.now();
    const made = requests.map((request) =>
      makeTask({
        localId: this.nextLocalId(),
        taskId: null,
        request,
        // As main records it: the target's service and address (today's contract unnamed).
        endpoint: target.endpoint,
        ...(target.provider === 'pictor' ? {} : { provider: target.provider }),
        status: 'submitting',
        createdAt: now,
        updatedAt: now,
        submittedAt: null,
        finishedAt: null,
        polls: 0,
        lastPolledAt: null,
      }),
    );
    // As main does: the tasks of one submit of several share the first one's id as batchId, and
    // each keeps its place in it.
    const batchId = made.length > 1 ? made[0]?.localId : undefined;
    if (batchId) made.forEach((record, i) => (made[i] = { ...record, batchId, batchIndex: i }));
    this.addTasks(made);
    if (made[0]) this.prompts.note(made[0].request.prompt, now);
    return made.map((record) => this.item(record));
  }

  private existing(localId: string): TaskRecord {
    const record = this.byId.get(localId);
    if (!record) throw new Error('This task is no longer in the history.');
    return record;
  }

  private readonly handlers: Handlers = {
    'app:getInfo': () => this.info,
    'app:openExternal': () => undefined,
    'app:openLogs': () => undefined,
    'app:copyText': ({ text }) => {
      this.clipboard = text;
    },
    'tasks:submit': ({ request, count, target }) =>
      this.submitted(
        Array.from({ length: count }, () => request),
        target,
      ),
    // As main does (core/batch/resend.ts): each task's own request on its own service; `batch`:
    // in its batch's order, as one new batch on its service.
    // Main's own lines: built from the target's dialect, nothing sent.
    'tasks:command': ({ request, target }) => requestCommands(target, request),
    'tasks:resend': ({ localIds, as, onlyFailed }) => {
      if (as === 'each') {
        return this.batch(localIds, (record) =>
          onlyFailed && !canSubmitAgain(record)
            ? null
            : (this.submitted([record.request], recordTarget(record))[0] ?? null),
        );
      }
      const records = [...new Set(localIds)]
        .map((localId) => this.existing(localId))
        .sort((a, b) => (a.batchIndex ?? localIds.length) - (b.batchIndex ?? localIds.length));
      const first = records[0]!;
      const items = this.submitted(
        records.map((record) => record.request),
        recordTarget(first),
      );
      return { items, skipped: 0 };
    },
    'tasks:list': (input) => this.list(input),
    'tasks:count': (input) => ({ total: this.matching(input).length }),
    'tasks:selectAll': (input) => {
      const matching = this.matching(input);
      return { localIds: matching.map((record) => record.localId), total: matching.length };
    },
    'tasks:get': ({ localId }) => {
      const record = this.byId.get(localId);
      return record ? this.item(record) : null;
    },
    'tasks:track': ({ taskId, prompt }) => {
      const known = this.tasks.find((record) => record.taskId === taskId);
      if (known) return this.item(known);
      const now = this.now();
      const record = makeTask({
        localId: this.nextLocalId(),
        taskId,
        origin: 'tracked',
        prompt: prompt ?? `Task ${taskId}`,
        request: { prompt: prompt ?? `Task ${taskId}` },
        status: 'processing',
        createdAt: now,
        finishedAt: null,
      });
      this.addTasks([record]);
      return this.item(record);
    },
    'tasks:resume': ({ localId }) => {
      this.existing(localId);
      return this.updateTask(
        localId,
        { hold: null, watchStartedAt: this.now() },
        { nextPollAt: this.now() + 3_000, polling: false, downloads: 0 },
      );
    },
    'tasks:retryImages': ({ localId }) => {
      const record = this.existing(localId);
      const images = record.images.map((image) =>
        image.state === 'invalid' || image.state === 'expired'
          ? { ...image, state: 'pending' as const }
          : image,
      );
      return this.updateTask(localId, { images });
    },
    'tasks:remove': ({ localId }) => {
      const record = this.byId.get(localId);
      if (record) this.removedForUndo.set(localId, record);
      const removed = this.byId.delete(localId);
      if (removed) {
        this.tasks = this.tasks.filter((record) => record.localId !== localId);
        this.emit('tasks:updated', [{ change: 'removed', localId }]);
      }
      return { removed };
    },
    // Batch actions as main runs them: the single action per known id, the rest skipped.
    'tasks:removeMany': ({ localIds }) => {
      const removed = [...new Set(localIds)].filter(
        (localId) => (this.handlers['tasks:remove']({ localId }) as { removed: boolean }).removed,
      );
      return { removed, skipped: new Set(localIds).size - removed.length };
    },
    'tasks:undoRemove': ({ localIds }) =>
      this.imageBatch(
        [...new Set(localIds)].map((localId) => ({ localId, index: 0 })),
        ({ localId }) => {
          const record = this.removedForUndo.get(localId);
          if (!record) throw new Error('This task can no longer be put back.');
          this.removedForUndo.delete(localId);
          this.addTasks([record]);
          return { record, live: null };
        },
      ),
    'tasks:setFavouriteMany': ({ localIds, favourite }) =>
      this.batch(localIds, (record) =>
        this.updateTask(record.localId, withTaskFavourite(record, favourite)),
      ),
    'tasks:retryMany': ({ localIds }) =>
      this.batch(localIds, (record) => {
        if (!canRetry(record)) return null;
        const { localId } = record;
        return record.status === 'processing'
          ? (this.handlers['tasks:resume']({ localId }) as TaskItem)
          : (this.handlers['tasks:retryImages']({ localId }) as TaskItem);
      }),
    // Cancels run over the real main (task-cancel.test.tsx): the page's cancel fails here.
    'tasks:cancel': notInTheFake,
    'tasks:cancelMany': notInTheFake,
    'tasks:stopWatching': notInTheFake,
    'tasks:exportMany': ({ localIds }) => {
      const ids = [...new Set(localIds)].filter((localId) => this.byId.has(localId));
      const copied = ids.reduce(
        (sum, localId) =>
          sum + this.existing(localId).images.filter((image) => image.state === 'saved').length,
        0,
      );
      const folder = this.chosenFolder;
      return folder === null
        ? { folder, copied: 0, failed: 0, skipped: 0 }
        : { folder, copied, failed: 0, skipped: new Set(localIds).size - ids.length };
    },
    'gallery:list': (input) => this.gallery(input),
    'gallery:count': (input) => this.galleryMatches(input).length,
    'gallery:selectAll': (input) => {
      const all = this.galleryMatches(input);
      return { images: all.map(({ localId, index }) => ({ localId, index })), total: all.length };
    },
    'gallery:models': () =>
      [
        ...new Set(
          this.tasks
            .filter((record) => record.images.some((image) => image.state !== 'deleted'))
            .map((record) => record.request.model)
            .filter((model): model is string => Boolean(model)),
        ),
      ].sort(),
    'gallery:deleteImage': (ref) => this.deleteHeld(ref),
    'gallery:deleteImages': ({ images }) => this.imageBatch(images, (ref) => this.deleteHeld(ref)),
    'gallery:undoDelete': ({ images }) =>
      this.imageBatch(images, (ref) => {
        const key = `${ref.localId}/${String(ref.index)}`;
        const held = this.heldForUndo.get(key);
        if (!held) throw new Error('This image can no longer be restored here.');
        this.heldForUndo.delete(key);
        return this.editImage(ref, held);
      }),
    'gallery:exportImages': ({ images }) =>
      this.chosenFolder === null
        ? { folder: null, copied: 0, failed: 0 }
        : { folder: this.chosenFolder, copied: images.length, failed: 0 },
    'gallery:reveal': () => undefined,
    'gallery:copyImage': () => undefined,
    'gallery:saveAs': () => ({ savedTo: '/home/ada/Desktop/image.png' }),
    'gallery:startDrag': () => undefined,
    'gallery:openFolder': () => undefined,
    'library:pick': () => {
      const path = this.chosenFolder;
      if (path === null) return { choice: null };
      const current = this.settings.galleryDir || this.info.galleryDir;
      const tasks = this.tasks.length;
      return {
        choice: {
          ticket: 'ticket-1',
          path,
          library: this.chosenLibrary,
          current: { path: current, tasks, files: tasks * 2, bytes: tasks * 250_000 },
          same: false,
        },
      };
    },
    'library:move': () => this.changeFolder('move'),
    'library:open': () => this.changeFolder('open'),
    'library:cancel': () => ({ cancelling: false }),
    'settings:get': () => this.settings,
    'settings:update': (patch) => {
      const addresses = Object.values(patch.serviceBaseUrls ?? {});
      if (addresses.some((address) => address !== '' && !/^https?:\/\/[^\s/]+/.test(address))) {
        throw new Error(
          'The service address must start with https:// (or http:// for this computer).',
        );
      }
      // As main does: a change of addresses names only the services it changes.
      const serviceBaseUrls = { ...this.settings.serviceBaseUrls, ...patch.serviceBaseUrls };
      this.settings = { ...this.settings, ...patch, serviceBaseUrls };
      this.emit('settings:changed', this.settings);
      this.refreshDemo();
      return this.settings;
    },
    'keys:getStatuses': () =>
      perProvider(PROVIDER_IDS, (provider) =>
        provider === 'pictor' ? this.keyStatus : this.serviceKeyStatus(provider),
      ),
    'keys:set': (input) => this.saveKey(input),
    'keys:clear': ({ provider }) =>
      this.setServiceKey(provider, {
        state: 'not_set',
        fingerprint: null,
        backend: this.storage.backend,
        weak: this.storage.weak,
        message: null,
      }),
    'service:testConnection': () => this.connection,
    'service:testService': () => this.serviceConnection,
    // Library export and import: nothing chosen unless a test handles the channel itself.
    'archive:export': () => ({ summary: null }),
    'archive:import': () => ({ summary: null }),
    'archive:cancel': () => ({ cancelled: false }),
    // ComfyUI's workflows: none kept, and the open dialog cancelled (the wired tests import them).
    'workflows:list': () => ({ workflows: [] }),
    'workflows:pick': () => ({ pick: null }),
    'workflows:save': ({ name }) => ({ name }),
    'workflows:remove': () => ({ removed: false }),
    // The models' options: none kept, and a refresh reaches no service (the wired tests fetch).
    'models:kept': () => [],
    'models:refresh': () => ({ ok: false, kept: [] }),
    'models:fromFile': () => ({ ok: false, kept: [] }),
    'models:forget': () => [],
    'updates:getState': () => this.updates,
    'updates:check': () => this.updates,
    'updates:download': () => this.updates,
    'updates:restart': () => undefined,
    'updates:openDownload': () => undefined,
    ...this.costs.handlers,
    ...this.triage.handlers,
    ...this.prompts.handlers,
    ...this.templates.handlers,
    ...this.compare.handlers,
    ...this.inputs.handlers,
  };
}

/** The fake's gallery cursor after `item` (main's is opaque too; tests compare with this). */
function galleryCursorOf(
  item: Pick<GalleryItem, 'createdAt' | 'localId' | 'index' | 'prompt'>,
): string {
  return JSON.stringify(orderKey(item));
}

/** What a gallery cursor holds: enough of the last image to find its place again. */
function orderKey(item: Pick<GalleryItem, 'createdAt' | 'localId' | 'index' | 'prompt'>) {
  return {
    createdAt: item.createdAt,
    localId: item.localId,
    index: item.index,
    prompt: item.prompt,
  };
}

/** The history's search, as HistoryStore answers it: every word somewhere in the prompt, any case. */
function matchesWords(prompt: string, search: string | undefined): boolean {
  const text = prompt.toLowerCase();
  return (search ?? '')
    .toLowerCase()
    .split(/\s+/)
    .filter(Boolean)
    .every((word) => text.includes(word));
}

function pick(request: TaskRecord['request']): Pick<GalleryItem, 'model' | 'size' | 'quality'> {
  return {
    ...(request.model ? { model: request.model } : {}),
    ...(request.size ? { size: request.size } : {}),
    ...(request.quality ? { quality: request.quality } : {}),
  };
}

/** Installs a fake as `window.pictor` and returns it. */
export function installFakeApi(fake: FakePictorApi = new FakePictorApi()): FakePictorApi {
  (window as unknown as { pictor: PictorApi }).pictor = fake;
  return fake;
}
