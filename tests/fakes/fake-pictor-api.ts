/**
 * The screenshot pages' `window.pictor` (tests/unit/renderer/harness/, run in a browser, where
 * main cannot run): in-memory records seeded with states a live service rarely shows at once
 * (every task status, offline, weak key storage), answering what the Tasks, Settings and Gallery
 * screens and the viewer ask as they open. Inputs and answers are parsed with the contract's
 * schemas, as the real bridge does. Nothing else is modelled: any other request fails, saying so.
 *
 * Tests run over the real main (tests/support/wired-api.ts, `startWiredApp`, the gallery's
 * `wiredGallery`), their faults through the contract's interceptor
 * (tests/support/contract-interceptor.ts). Browser-safe: imports only shared/ and test support.
 */
import type { GalleryItem } from '../../shared/domain/gallery-item';
import { hasContentCredentials } from '../../shared/domain/content-credentials';
import type { LiveState } from '../../shared/domain/live-state';
import type { KeyStatus } from '../../shared/domain/key-status';
import { DEFAULT_SETTINGS, type Settings } from '../../shared/domain/settings';
import { PROVIDER_IDS, perProvider, providerOf } from '../../shared/domain/providers';
import type { TaskRecord } from '../../shared/domain/task-record';
import { SEED_START, makeTask } from '../support/task-records';
import { GALLERY_BASE, type PictorApi } from '../../shared/ipc/api';
import {
  events,
  requests,
  type AppInfo,
  type EventChannel,
  type EventPayload,
  type RequestChannel,
  type RequestInput,
  type RequestOutput,
  type Result,
  type TaskItem,
} from '../../shared/ipc/contract';

type Handler<C extends RequestChannel> = (
  input: RequestInput<C>,
) => RequestOutput<C> | Promise<RequestOutput<C>>;
type Handlers = { [C in RequestChannel]?: Handler<C> };

function newestFirst(a: TaskRecord, b: TaskRecord): number {
  if (a.createdAt !== b.createdAt) return b.createdAt - a.createdAt;
  return a.localId < b.localId ? 1 : a.localId > b.localId ? -1 : 0;
}

/** What main's vault says before the user agrees to keep a key in weak storage. */
const WEAK_STORAGE =
  'This computer protects saved secrets only with Chromium’s basic text store, which is effectively plain text.';

export class FakePictorApi implements PictorApi {
  /** As in the app; the screenshot pages point it at their own server. */
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
  /** How the fake OS stores secrets: `weak` makes Save key ask for consent. */
  storage = { backend: 'gnome_libsecret', weak: false };
  /** Today's contract's key status; the other services have none set. */
  keyStatus: KeyStatus = {
    state: 'not_set',
    fingerprint: null,
    backend: 'gnome_libsecret',
    weak: false,
    message: 'No API key is set, so Pictor uses its built-in demo service.',
  };
  now: () => number = () => Date.now();

  private tasks: TaskRecord[] = [];
  private readonly byId = new Map<string, TaskRecord>();
  private readonly live = new Map<string, LiveState>();
  private readonly listeners = new Map<EventChannel, Set<(payload: never) => void>>();

  // ---- PictorApi ----

  async invoke<C extends RequestChannel>(
    channel: C,
    ...args: [input?: RequestInput<C>]
  ): Promise<Result<RequestOutput<C>>> {
    const input = args[0];
    this.calls.push({ channel, input });
    const spec = requests[channel];
    const parsed = spec.input.safeParse(input);
    if (!parsed.success) {
      const message = 'The request was not understood.';
      return { ok: false, error: { code: 'bad_input', message, detail: parsed.error.message } };
    }
    const handler = this.handlers[channel] as Handler<C> | undefined;
    if (!handler) {
      const message = `Not in the screenshot pages' fake: ${channel}.`;
      return { ok: false, error: { code: 'failed', message } };
    }
    try {
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

  // ---- seeding ----

  /** Sends an event to the page (parsed with the contract's schema first). */
  emit<C extends EventChannel>(channel: C, payload: EventPayload<C>): void {
    const parsed = events[channel].parse(payload) as never;
    for (const listener of this.listeners.get(channel) ?? []) listener(parsed);
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
    for (const record of made) this.byId.set(record.localId, record);
    this.tasks = [...this.byId.values()].sort(newestFirst);
    return made;
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
    const at = this.tasks.findIndex((record) => record.localId === localId);
    if (at >= 0) this.tasks[at] = next;
    if (live) this.live.set(localId, live);
    else this.live.delete(localId);
    const item = this.item(next);
    this.emit('tasks:updated', [{ change: 'task', ...item }]);
    return item;
  }

  // ---- what the screens ask ----

  private item(record: TaskRecord): TaskItem {
    return { record, live: this.live.get(record.localId) ?? null };
  }

  /** Save key, as main's vault answers it on weak storage before the user agreed; else refused. */
  private saveKey(input: RequestInput<'keys:set'>): RequestOutput<'keys:set'> {
    const { backend, weak } = this.storage;
    if (!weak || input.allowWeakStorage) throw new Error('Keys are stored by the real main.');
    const status: KeyStatus = {
      state: 'needs_consent',
      fingerprint: this.keyStatus.fingerprint,
      backend,
      weak: true,
      message: WEAK_STORAGE,
    };
    return { outcome: 'storage', status };
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

  private readonly handlers: Handlers = {
    'app:getInfo': () => this.info,
    'settings:get': () => this.settings,
    'keys:getStatuses': () =>
      perProvider(PROVIDER_IDS, (provider) =>
        provider === 'pictor'
          ? this.keyStatus
          : { state: 'not_set', fingerprint: null, ...this.storage, message: null },
      ),
    'keys:set': (input) => this.saveKey(input),
    'updates:getState': () => ({
      status: 'unavailable',
      reason: 'development',
      canInstall: false,
    }),
    'models:kept': () => [],
    'workflows:list': () => ({ workflows: [] }),
    'templates:list': () => ({ templates: [], problems: [], wordLists: [] }),
    'triage:library': () => ({ boards: [], tags: [], smart: [] }),
    'costs:prices': () => [],
    'costs:caps': () => [],
    'costs:preview': ({ count }) => ({ perTask: { source: 'unknown' }, count, caps: [] }),
    'tasks:list': (input) => this.list(input),
    'tasks:count': (input) => ({ total: this.matching(input).length }),
    'tasks:get': ({ localId }) => {
      const record = this.byId.get(localId);
      return record ? this.item(record) : null;
    },
    'gallery:list': (input) => this.gallery(input),
    'gallery:count': (input) => this.galleryMatches(input).length,
    'gallery:models': () =>
      [
        ...new Set(
          this.tasks
            .filter((record) => record.images.some((image) => image.state !== 'deleted'))
            .map((record) => record.request.model)
            .filter((model): model is string => Boolean(model)),
        ),
      ].sort(),
    'images:stack': ({ localId, index }) => ({
      original: { kind: 'library', localId, index },
      entries: [],
    }),
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
