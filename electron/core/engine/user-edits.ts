/**
 * The user's changes to stored tasks (a star, an image deleted, a selection's triage), written
 * and announced the way the engine's own changes are, so the two never overwrite each other, and
 * each task's sidecar brought up to date after: of a change of triage alone, only what holds
 * triage on disk (the images' XMP sidecars, never `pictor.json`).
 */
import { type ImageFilesPatch, withPatchedImage } from '../../../shared/domain/image-files-patch';
import type { TaskRecord } from '../../../shared/domain/task-record';
import type { TaskTriageDelta } from '../../../shared/domain/triage-delta';
import { Emitter, type Event } from '../../ports/event';
import { silentLogger } from '../../ports/logger';
import { sentence } from '../../../shared/i18n/sentence';
import type { DownloadManager } from './download-manager';
import type { EngineRecords } from './engine-records';
import { EngineInputError, type TaskEngineDeps } from './engine-types';
import { userWritesOn } from './user-writes';
import type { UserWrites } from '../../ports/user-writes';

export class UserEdits {
  private readonly writes: Pick<UserWrites, 'imageFiles'>;
  /** Changes of triage alone of tasks the engine does not work on (TaskEngine.onDidTriage). */
  private readonly triaged: Emitter<TaskTriageDelta>;

  constructor(
    private readonly records: EngineRecords,
    private readonly downloads: Pick<DownloadManager, 'writeSidecar'>,
    /** Where an image's move to the trash and back is written: the history worker, else `history`. */
    private readonly deps: Pick<
      TaskEngineDeps,
      'userWrites' | 'history' | 'removals' | 'clock' | 'logger'
    >,
  ) {
    this.writes = deps.userWrites ?? userWritesOn(deps.history, deps.removals);
    const logger = deps.logger ?? silentLogger;
    this.triaged = new Emitter({ name: 'task triaged', logger });
  }

  /** @throws EngineInputError when the history has no such task. */
  find(localId: string): TaskRecord {
    const record = this.records.get(localId);
    if (!record) throw new EngineInputError(sentence('error.library.taskNotInHistory'));
    return record;
  }

  /** See TaskEngine.edit. */
  edit(localId: string, change: (record: TaskRecord) => TaskRecord): TaskRecord {
    const current = this.find(localId);
    const checked = (record: TaskRecord): TaskRecord => {
      const next = change(record);
      if (next.localId !== localId) throw new Error('An edit cannot change the task id.');
      return next;
    };
    // Nothing to write (the change left the record as it was): the record as it stands.
    const committed = this.records.edit(localId, checked);
    this.downloads.writeSidecar(localId, committed ? this.records.touched(committed) : 'record');
    return committed ?? current;
  }

  /** See TaskEngine.editImageFiles. */
  async editImageFiles(
    ref: { localId: string; index: number },
    patch: ImageFilesPatch,
  ): Promise<TaskRecord> {
    const change = (record: TaskRecord) => withPatchedImage(record, ref.index, patch) ?? record;
    if (this.records.keepsOwnCopy(ref.localId)) return this.edit(ref.localId, change);
    const written = await this.writes.imageFiles(ref, patch, this.deps.clock.now());
    // Nothing written: the task as it stands (EngineInputError when the library has none).
    if (written === null) return this.find(ref.localId);
    const current = this.records.tookRecord(written, change);
    this.downloads.writeSidecar(ref.localId, 'record');
    return current;
  }

  /** See TaskEngine.editMany. */
  editMany(
    localIds: Iterable<string>,
    change: (record: TaskRecord) => TaskRecord,
    alongside?: () => void,
  ): TaskRecord[] {
    const written = this.records.editMany(localIds, change, alongside);
    for (const record of written) {
      this.downloads.writeSidecar(record.localId, this.records.touched(record));
    }
    return written;
  }

  /** See TaskEngine.tookTriage. */
  tookTriage(deltas: readonly TaskTriageDelta[]): void {
    for (const delta of deltas) {
      if (!this.records.tookTriage(delta)) this.triaged.fire(delta);
      this.downloads.writeSidecar(delta.localId, 'triage');
    }
  }

  /** See TaskEngine.onDidTriage. */
  readonly onDidTriage: Event<TaskTriageDelta> = (listener) => this.triaged.event(listener);
}
