/**
 * The user's settings in their own store (settings.json, beside the window bounds), checked on
 * every read and change. A damaged file is kept aside and replaced by defaults (their cautious side, UNREAD_SETTINGS), with a sentence
 * for the user; the key vault and the history live in other files and are never touched.
 *
 * That repair is the app's, the file's owner, which says so at start. A guest that reads the
 * app's file (the CLI: "never upload inputs", the upload consents) opens it with
 * `damaged: 'refuse'`: a damaged file is left as it was, for the app to report, and every read
 * and change throws a sentence naming it, so a command never acts on defaults that might allow
 * what the user had forbidden (inputs uploaded), and the app never finds its file gone.
 *
 * The app and the commands each keep a copy of what they read: a change is applied to the file as
 * it is when written, holding its lock, and writes only what it changed (settings-merge.ts). The
 * app takes that lock without blocking its main process (`…Soon`, the window's bounds), and reads
 * the file again when it changes ({@link SettingsService.follow}), so it learns a command's change
 * without waiting for its own next one. Its start never waits for the lock at all
 * ({@link SettingsService.open}): the window comes first, a repair when the lock may be had.
 */
import type { Settings } from '../../../shared/domain/settings';
import { UNREAD_SETTINGS } from '../../../shared/domain/settings';
import type { KeyValueStore } from '../../ports/key-value-store';
import { StoreBusyError } from '../../ports/key-value-store';
import type { Disposable } from '../../ports/disposable';
import { Emitter, type Event } from '../../ports/event';
import type { Logger } from '../../ports/logger';
import { silentLogger } from '../../ports/logger';
import { sentence } from '../../../shared/i18n/sentence';
import type { SettingName } from './settings-fields';
import { SETTING_LABELS, checkField, parseStoredSettings } from './settings-fields';
import { SettingsError, applySettingsPatch } from './settings-patch';
import { rebasePatch, storedRecord, writtenSettings } from './settings-merge';
import {
  SETTINGS_KEY,
  WINDOW_BOUNDS_KEY,
  keepAside,
  whenLocked,
  writeRepaired,
  type RepairPorts,
} from './settings-file';
import type { WindowBounds } from './window-bounds';
import { windowBoundsSchema } from './window-bounds';
import { messageOf } from '../errors';
import {
  damagedProblem,
  unreadable,
  unreadableProblem,
  type SettingsProblem,
} from './settings-problems';

export type { SettingsProblem } from './settings-problems';

export interface SettingsServiceOptions {
  /** The settings store (settings.json), never the key vault's. */
  readonly store: KeyValueStore;
  readonly now: () => number;
  readonly logger?: Logger;
  /**
   * What a damaged file leads to: `repair` (default; the app) sets it aside and goes on with the
   * defaults or the good values, `refuse` (a guest: the CLI) leaves it and throws at every use.
   */
  readonly damaged?: 'repair' | 'refuse';
}

export class SettingsService {
  /** Until the file is read, and while it cannot be: the cautious stand-ins. */
  private current: Settings = { ...UNREAD_SETTINGS };
  private bounds: WindowBounds | null = null;
  /** Bounds given since the last save began, and the save running (setWindowBounds). */
  private boundsUnsaved = false;
  private boundsSaving: Promise<void> | null = null;
  private problems: SettingsProblem[] = [];
  /** Under `damaged: 'refuse'`, why the file is not used: thrown at every read and change. */
  private refusal: SettingsError | null = null;
  private readonly logger: Logger;
  private readonly changed: Emitter<Settings>;
  /** Read at the start without the file's lock: nothing written yet, a repair left for later. */
  private unlocked = false;
  /** Resolves once the file was read holding its lock (see {@link open}). */
  private heldRead: Promise<void> = Promise.resolve();

  /**
   * Reads the file now; never throws (a damaged file becomes defaults and a problem). With
   * `unlocked`, reads it as it is without its lock and writes nothing ({@link open}).
   */
  constructor(
    private readonly options: SettingsServiceOptions,
    unlocked = false,
  ) {
    this.logger = options.logger ?? silentLogger;
    this.changed = new Emitter({ name: 'settings changed', logger: this.logger });
    this.unlocked = unlocked;
    if (unlocked) this.read();
    else this.load();
  }

  /**
   * The service as the app opens it at its start, without ever waiting for the file's lock: held
   * by another process (a `pictor` command, even one stopped mid-write), the wait would come
   * before any window (up to 5 s, and 5 s more blocking the thread to read it without). The file
   * is read (and repaired) holding the lock when no one holds it, as the constructor reads it;
   * else read as it is at once (its writes are atomic: the whole old file or the whole new one),
   * writing nothing, and read again holding the lock once it may be had, when leftovers are removed
   * and a damaged file repaired: listeners hear of a difference, and its problems are handed out
   * then ({@link whenHeldRead}). Never throws.
   */
  static async open(options: SettingsServiceOptions): Promise<SettingsService> {
    const made: { locked?: SettingsService; early?: SettingsService } = {};
    const read = () => {
      if (made.early) made.early.readAgain();
      else made.locked = new SettingsService(options);
    };
    // The store's first try is made at once: a lock no one holds is taken before this returns.
    const locked = options.store.exclusivelySoon(read);
    if (made.locked) {
      await locked.catch(() => undefined);
      return made.locked;
    }
    const early = new SettingsService(options, true);
    made.early = early;
    // Not busy but unusable (a lock file that is no file): read as the constructor reads.
    const run = { work: read, unusable: () => early.readAgain() };
    early.heldRead = whenLocked(options.store, locked, run, early.logger);
    return early;
  }

  /** Resolves once the file has been read holding its lock (at once unless {@link open} could not). */
  whenHeldRead(): Promise<void> {
    return this.heldRead;
  }

  /**
   * The read the start made without the lock, made again as the constructor makes it (holding the
   * lock, now that it is held: the store takes it again at no cost).
   */
  private readAgain(): void {
    if (!this.unlocked) return;
    this.unlocked = false;
    const before = JSON.stringify(this.current);
    this.load();
    if (JSON.stringify(this.current) !== before) this.emit();
  }

  /** @throws SettingsError under `damaged: 'refuse'` when the file is damaged. */
  get(): Settings {
    if (this.refusal) throw this.refusal;
    return { ...this.current };
  }

  /**
   * The settings as the file holds them now, read again: for a process that runs long beside the
   * app (`pictor mcp`), whose sends must follow a change the app made since ("never upload
   * inputs"). Listeners hear of a difference. Under `damaged: 'refuse'`, a file damaged now is
   * refused, and one made good again (the app's start repaired it) is used again.
   * @throws SettingsError under `damaged: 'refuse'` when the file is damaged now.
   */
  reload(): Settings {
    const before = JSON.stringify(this.current);
    if (this.options.damaged === 'refuse') this.refusal = null;
    try {
      this.current = this.reread().fresh;
    } catch (error) {
      if (error instanceof SettingsError) throw error;
      // The app's own file, not readable as settings just now: it goes on with what it had.
      this.logger.warn('settings could not be read again', { error: messageOf(error) });
    }
    if (JSON.stringify(this.current) !== before) this.emit();
    return this.get();
  }

  /**
   * Applies a change from the renderer and saves it; listeners hear of it when anything changed.
   * Waits for another process's change of the file blocking the thread: a command's way (the app
   * calls {@link updateSoon}).
   * @throws SettingsError with sentences naming every refused setting, or when saving failed.
   */
  update(patch: unknown): Settings {
    const base = this.current;
    return this.change((fresh) => applySettingsPatch(fresh, rebasePatch(patch, base, fresh)));
  }

  /**
   * {@link update} for the app's main process: while another process (a `pictor` command, even
   * one suspended mid-write) holds the file, the wait is made without blocking the event loop, so
   * the window never freezes on it.
   * @throws SettingsError as {@link update} does.
   */
  updateSoon(patch: unknown): Promise<Settings> {
    const base = this.current;
    return this.changeSoon((fresh) => applySettingsPatch(fresh, rebasePatch(patch, base, fresh)));
  }

  /**
   * The gallery folder, after the main process moved the library there (a folder from its own
   * dialog; empty for the default folder). Not reachable from the page's settings patch. Saved
   * without blocking the thread, as {@link updateSoon}.
   * @throws SettingsError when the path is not absolute, or when saving failed.
   */
  setGalleryDir(folder: string): Promise<Settings> {
    const checked = checkField('galleryDir', folder);
    if (!checked.ok) return Promise.reject(new SettingsError(checked.said, ['galleryDir']));
    return this.changeSoon((fresh) => ({ ...fresh, galleryDir: checked.value }));
  }

  /**
   * Reads the file again whenever it changes (a `pictor` command's change while the app runs;
   * the store looks, see adapters/store-watch.ts), until disposed: listeners hear of every
   * difference, so Settings shows what the file holds and a send follows it. Never throws.
   */
  follow(): Disposable {
    return this.options.store.watch(() => {
      try {
        this.reload();
      } catch (error) {
        // Refused (a damaged file, under `damaged: 'refuse'`): said at the next read or change.
        this.logger.warn('settings could not be read again', { error: messageOf(error) });
      }
    });
  }

  /**
   * Applies `apply` to the settings as the file holds them now, read again holding the file's
   * lock, and writes only what it changed (settings-merge.ts): another process's change made
   * since this one last read the file stays. Listeners hear of every difference from what this
   * process had, the other process's changes included.
   */
  private change(apply: (fresh: Settings) => Settings): Settings {
    if (this.refusal) throw this.refusal;
    let before = '';
    try {
      this.options.store.exclusively(() => (before = this.applyHolding(apply)));
    } catch (error) {
      throw this.notSaved(error);
    }
    return this.changedFrom(before);
  }

  /** {@link change}, taking the lock without blocking the thread. */
  private async changeSoon(apply: (fresh: Settings) => Settings): Promise<Settings> {
    if (this.refusal) throw this.refusal;
    let before = '';
    try {
      await this.options.store.exclusivelySoon(() => (before = this.applyHolding(apply)));
    } catch (error) {
      throw this.notSaved(error);
    }
    return this.changedFrom(before);
  }

  /** The change itself, run holding the file's lock; what this process had before it. */
  private applyHolding(apply: (fresh: Settings) => Settings): string {
    const before = JSON.stringify(this.current);
    const { fresh, stored } = this.reread();
    const next = apply(fresh);
    const written = writtenSettings(stored, fresh, next);
    if (written !== null) this.options.store.set(SETTINGS_KEY, written);
    this.current = next;
    return before;
  }

  /** A refusal as it was; any other failure logged, and said as a sentence naming the file. */
  private notSaved(error: unknown): SettingsError {
    if (error instanceof SettingsError) return error;
    const { path } = this.options.store;
    this.logger.error('settings could not be saved', { path, error: messageOf(error) });
    const said =
      error instanceof StoreBusyError ? 'error.settings.busy' : 'error.settings.notSaved';
    return new SettingsError(sentence(said, { path }));
  }

  /** The settings now; listeners hear of them when they differ from `before`. */
  private changedFrom(before: string): Settings {
    if (JSON.stringify(this.current) !== before) this.emit();
    return this.get();
  }

  /**
   * The settings the file holds now, and its value to write over (`null`: none yet). A file
   * damaged since the start is not repaired here, only at a start: under `damaged: 'refuse'` it is
   * refused, else the change is not saved (the file stays as it is, for the next start to report).
   * @throws SettingsError when refused; what the store threw, or an Error, when not saved.
   */
  private reread(): { fresh: Settings; stored: Record<string, unknown> | null } {
    let raw: unknown;
    try {
      raw = this.options.store.get(SETTINGS_KEY);
    } catch (error) {
      throw this.refused() ?? error;
    }
    const read = parseStoredSettings(raw);
    if (read.unusable) throw this.refused() ?? new Error('The settings are not an object.');
    const refusal = read.invalid.length > 0 ? this.refused() : null;
    if (refusal) throw refusal;
    return { fresh: read.settings, stored: storedRecord(raw) };
  }

  /** Problems found when the file was read; each is handed out once. */
  takeProblems(): SettingsProblem[] {
    const problems = this.problems;
    this.problems = [];
    return problems;
  }

  /** Called with the new settings after each change, until the result is disposed. */
  readonly onDidChange: Event<Settings> = (listener) => this.changed.event(listener);

  /** The main window's last bounds, or null when none were saved (or they were invalid). */
  getWindowBounds(): WindowBounds | null {
    return this.bounds === null ? null : { ...this.bounds };
  }

  /**
   * Remembers the window's bounds, saved soon: a save waits for another process's change of the
   * file without blocking the thread (the window is being moved), and only the latest bounds are
   * written once it may. Returns false (and logs) when they are invalid; a save that fails is
   * logged, the bounds kept for this run.
   */
  setWindowBounds(bounds: unknown): boolean {
    if (this.refusal) return false;
    const parsed = windowBoundsSchema.safeParse(bounds);
    if (!parsed.success) {
      this.logger.warn('window bounds refused', { issues: parsed.error.issues.length });
      return false;
    }
    this.bounds = parsed.data;
    this.boundsUnsaved = true;
    this.boundsSaving ??= this.saveBounds();
    return true;
  }

  /** Resolves once the bounds given so far are saved (or their save failed). */
  boundsSaved(): Promise<void> {
    return this.boundsSaving ?? Promise.resolve();
  }

  /** Writes the latest bounds until none are left unsaved; the first try is made at once. */
  private async saveBounds(): Promise<void> {
    const { store } = this.options;
    while (this.boundsUnsaved) {
      this.boundsUnsaved = false;
      try {
        await store.exclusivelySoon(() => store.set(WINDOW_BOUNDS_KEY, this.bounds));
      } catch (error) {
        this.logger.warn('window bounds not saved', { error: messageOf(error) });
      }
    }
    this.boundsSaving = null;
  }

  private load(): void {
    const { store } = this.options;
    // Temporary files killed writes left; electron-store's, which name no writer, only by the
    // file's owner (the app: one per data folder), at its start, before it writes.
    const removed = store.removeLeftovers(this.options.now(), this.options.damaged !== 'refuse');
    if (removed > 0) this.logger.info('leftover temporary settings files removed', { removed });
    if (this.options.damaged === 'refuse') return this.read();
    // The owner's repair holds the file's lock from its read to its write, so that no other
    // process's change comes between them; read without it when the lock cannot be had.
    let read = false;
    try {
      store.exclusively(() => {
        this.read();
        read = true;
      });
    } catch (error) {
      this.logger.warn('settings read without their lock', { error: messageOf(error) });
    }
    if (!read) this.read();
  }

  private read(): void {
    const { store } = this.options;
    let rawSettings: unknown;
    let rawBounds: unknown;
    try {
      rawSettings = store.get(SETTINGS_KEY);
      rawBounds = store.get(WINDOW_BOUNDS_KEY);
    } catch (error) {
      if (unreadable(error)) {
        // Left as it is, for the user to make readable: moved aside, it would read as lost
        // settings at the next start. Meanwhile the defaults, and a change is not saved (the
        // store reads the file again to write, and fails as this read did).
        this.logger.warn('settings file could not be read', {
          path: store.path,
          error: messageOf(error),
        });
        if (!this.unlocked && !this.refused()) this.problems.push(unreadableProblem(store.path));
        return;
      }
      this.logger.warn('settings file is not valid JSON', {
        path: store.path,
        error: messageOf(error),
      });
      if (this.unlocked) return;
      if (!this.refused()) this.problems.push(damagedProblem(this.keepAside(), store.path));
      return;
    }
    const stored = parseStoredSettings(rawSettings);
    const bounds = windowBoundsSchema.safeParse(rawBounds);
    this.bounds = bounds.success ? bounds.data : null;
    if (stored.unusable) {
      this.logger.warn('settings in the file are not an object', { path: store.path });
      this.bounds = null;
      if (this.unlocked || this.refused()) return;
      this.problems.push(damagedProblem(this.keepAside(), store.path));
      return;
    }
    this.current = stored.settings;
    if (stored.newer.length > 0) {
      // Kept in the file for the newer Pictor that wrote them (settings-newer.ts); no repair.
      const fields = stored.newer.map((name) => SETTING_LABELS[name]).join(', ');
      this.logger.info('settings a newer Pictor wrote are read as their defaults', { fields });
    }
    if (stored.invalid.length > 0 && !this.unlocked && !this.refused()) {
      this.repairFields(stored.invalid, storedRecord(rawSettings));
    }
  }

  /**
   * Under `damaged: 'refuse'`, marks the damaged file refused (left as it is) and returns the
   * refusal; under `repair`, null: the caller repairs it.
   */
  private refused(): SettingsError | null {
    if (this.options.damaged !== 'refuse') return null;
    const path = this.options.store.path;
    this.refusal = new SettingsError(sentence('error.settings.damagedNotUsed', { path }));
    this.current = { ...UNREAD_SETTINGS };
    this.bounds = null;
    return this.refusal;
  }

  /** Some values were bad: the file repaired (settings-file.ts), and the problem said. */
  private repairFields(
    names: readonly SettingName[],
    stored: Record<string, unknown> | null,
  ): void {
    const repaired = { settings: this.current, bounds: this.bounds };
    this.problems.push(writeRepaired(this.repairPorts(), names, stored, repaired));
  }

  private keepAside(): string | null {
    return keepAside(this.repairPorts());
  }

  private repairPorts(): RepairPorts {
    return { store: this.options.store, now: this.options.now, logger: this.logger };
  }

  private emit(): void {
    this.changed.fire(this.get());
  }
}
