/**
 * The views the page has open, as main lists them: the task list's filter and the gallery's
 * (the Triage view is the gallery's, with its triage filters), each remembered when the page
 * reads a view's first page. For the tasks of a `tasks:updated` batch, main answers where each
 * record stands in each open view with the very query it lists the view with (the history's
 * filters, full-text search included, narrowed to those tasks), so the page never judges a
 * filter or a search itself (shared/ipc/task-changes.ts, `views`).
 */
import { MAX_IMAGES_PER_TASK } from '../../shared/domain/limits';
import type { ViewMembership } from '../../shared/ipc/task-changes';
import type { HistoryStore } from '../core/history';
import type { SmartBoards } from '../core/triage';
import { withSmartRules } from './smart-rules';

type TaskView = Omit<Parameters<HistoryStore['taskIds']>[0], 'among'>;
/** The gallery's filters as the page sends them: a smart board by name. */
type GalleryView = Omit<Parameters<HistoryStore['imageKeys']>[0], 'among' | 'smart'> & {
  readonly smart?: string;
};

interface OpenViewsDeps {
  readonly history: Pick<HistoryStore, 'taskIds' | 'imageKeys'>;
  readonly smartBoards: Pick<SmartBoards, 'rulesOf'>;
}

/** Where records stand in the open views, by task (no entry: no view is open). */
export type Memberships = ReadonlyMap<string, ViewMembership>;

export class OpenViews {
  private tasks: TaskView | null = null;
  private gallery: GalleryView | null = null;

  constructor(private readonly deps: OpenViewsDeps) {}

  /** The page listed the task list with this filter: it is the open one now. */
  showTasks(filter: TaskView): void {
    this.tasks = filter;
  }

  /** The page listed the gallery with these filters: they are the open ones now. */
  showGallery(filters: GalleryView): void {
    this.gallery = filters;
  }

  /** Where each of these tasks stands in each open view, as the views' queries find it. */
  membership(localIds: readonly string[]): Memberships {
    const found = new Map<string, ViewMembership>();
    if (localIds.length === 0) return found;
    const among = [...new Set(localIds)];
    const inTasks = this.tasksHolding(among);
    const inGallery = this.galleryHolding(among);
    for (const localId of among) {
      found.set(localId, {
        ...(inTasks ? { tasks: inTasks.has(localId) } : {}),
        ...(inGallery ? { gallery: inGallery.get(localId) ?? [] } : {}),
      });
    }
    return found;
  }

  /** The tasks of `among` the task list's filter holds (null: no task list is open). */
  private tasksHolding(among: readonly string[]): Set<string> | null {
    if (!this.tasks) return null;
    return new Set(this.deps.history.taskIds({ ...this.tasks, among }, among.length));
  }

  /**
   * The images of `among` the gallery's filters hold, by task (null: no gallery is open, or its
   * smart board is gone: the page reads the list again then).
   */
  private galleryHolding(among: readonly string[]): Map<string, number[]> | null {
    if (!this.gallery) return null;
    let query;
    try {
      query = withSmartRules(this.deps.smartBoards, this.gallery);
    } catch {
      return null;
    }
    const keys = this.deps.history.imageKeys(
      { ...query, among },
      among.length * MAX_IMAGES_PER_TASK,
    );
    const held = new Map<string, number[]>();
    for (const { localId, index } of keys) held.set(localId, [...(held.get(localId) ?? []), index]);
    return held;
  }
}
