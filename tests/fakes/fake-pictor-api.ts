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
import type { LiveState } from '../../shared/domain/live-state';
import type { KeyStatus } from '../../shared/domain/key-status';
import { DEFAULT_SETTINGS, type Settings } from '../../shared/domain/settings';
import { PROVIDER_IDS, perProvider } from '../../shared/domain/providers';
import type { TaskRecord } from '../../shared/domain/task-record';
import { SEED_START, makeTask } from '../support/task-records';
import { GALLERY_BASE, type PictorApi } from '../../shared/ipc/api';
import {
  requests,
  type AppInfo,
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

  private tasks: TaskRecord[] = [];
  private readonly byId = new Map<string, TaskRecord>();
  private readonly live = new Map<string, LiveState>();

  // ---- PictorApi ----

  async invoke<C extends RequestChannel>(
    channel: C,
    ...args: [input?: RequestInput<C>]
  ): Promise<Result<RequestOutput<C>>> {
    const input = args[0];
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

  /** The pages are pictures of a moment: nothing changes, so no event comes. */
  on(): () => void {
    return () => undefined;
  }

  // ---- seeding ----

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

  /** What the task list shows of a task main watches now (its next poll…). */
  setLive(localId: string, live: LiveState): void {
    this.live.set(localId, live);
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

  /** The tasks of a status filter (the list's tabs and the sidebar's count); no search. */
  private matching(input: RequestInput<'tasks:count'>): TaskRecord[] {
    return this.tasks.filter((record) => !input.statuses || input.statuses.includes(record.status));
  }

  /** A page of `all` from the offset its cursor names (main's cursor is opaque too). */
  private static page<T>(all: readonly T[], cursor: string | null | undefined, limit: number) {
    const start = cursor ? Number(cursor) : 0;
    const end = start + limit;
    return { page: all.slice(start, end), nextCursor: end < all.length ? String(end) : null };
  }

  private list(input: RequestInput<'tasks:list'>): RequestOutput<'tasks:list'> {
    const { page, nextCursor } = FakePictorApi.page(
      this.matching(input),
      input.cursor,
      input.limit ?? 50,
    );
    return { items: page.map((record) => this.item(record)), nextCursor };
  }

  /** The gallery as it opens: every image not deleted, newest task first; no filter, no sort. */
  private galleryItems(): GalleryItem[] {
    return this.tasks.flatMap((record) =>
      record.images
        .filter((image) => image.state !== 'deleted')
        .map((image) => ({
          localId: record.localId,
          taskId: record.taskId,
          index: image.index,
          image,
          prompt: record.request.prompt,
          createdAt: record.createdAt,
          ...(record.request.model ? { model: record.request.model } : {}),
          ...(record.request.size ? { size: record.request.size } : {}),
          ...(record.request.quality ? { quality: record.request.quality } : {}),
        })),
    );
  }

  private gallery(input: RequestInput<'gallery:list'>): RequestOutput<'gallery:list'> {
    const { page, nextCursor } = FakePictorApi.page(
      this.galleryItems(),
      input.cursor,
      input.limit ?? 100,
    );
    const localIds = new Set(page.map((item) => item.localId));
    const records = this.tasks
      .filter((record) => localIds.has(record.localId))
      .map((record) => ({ record, live: null }));
    return { items: page, nextCursor, records };
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
    'gallery:count': () => this.galleryItems().length,
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

/** Installs a fake as `window.pictor` and returns it. */
export function installFakeApi(fake: FakePictorApi = new FakePictorApi()): FakePictorApi {
  (window as unknown as { pictor: PictorApi }).pictor = fake;
  return fake;
}
