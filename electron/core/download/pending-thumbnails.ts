/**
 * Makes the thumbnails that are pending: images saved by a host with no image decoder (the CLI
 * on a machine with no display, an app whose image renderer could not start) or found without
 * one by rebuild. The app asks for a run each time it shows the gallery; a run makes every one
 * it can, one at a time, and leaves the rest pending for the next. Each made thumbnail reaches
 * the record (and the gallery) through the engine's own edit.
 */
import type { ImageRecord, TaskRecord } from '../../../shared/domain/task-record';
import type { ImageEngine } from '../../ports/image-engine';
import type { Logger } from '../../ports/logger';
import type { ImageRecords } from '../gallery';
import type { HistoryStore } from '../history';
import type { SavedThumbnail } from './saved-thumbnail';

/** Tasks fetched from the history at a time. */
const BATCH = 50;

export interface PendingThumbnailsDeps {
  readonly history: Pick<HistoryStore, 'withPendingThumbnails'>;
  readonly records: ImageRecords;
  /** Makes and stores one image's thumbnail (ImageIntake.makeThumbnail). */
  readonly make: (image: ImageRecord) => Promise<SavedThumbnail>;
  readonly imageEngine: Pick<ImageEngine, 'name'>;
  readonly logger: Logger;
}

/** What one run did. */
export interface PendingRun {
  readonly made: number;
  readonly refused: number;
  /** Still pending after the run (no decoder here, an engine failure, a disk problem). */
  readonly left: number;
}

const isPending = (image: ImageRecord) =>
  image.state === 'saved' && image.thumbnailPending === true;

function applied(image: ImageRecord, result: SavedThumbnail): ImageRecord {
  const { thumbnailPending: _pending, thumbnail: _thumbnail, ...rest } = image;
  if (result.kind === 'made') {
    return { ...rest, thumbnail: result.thumbnail, width: result.width, height: result.height };
  }
  // Damaged after all: it leaves the gallery as a download would have; its file stays on disk.
  const { file: _file, ...kept } = rest;
  return {
    ...kept,
    state: 'invalid',
    error: result.kind === 'refused' ? result.error : '',
    ...(result.kind === 'refused' && result.errorSentence
      ? { errorSentence: result.errorSentence }
      : {}),
  };
}

export class PendingThumbnails {
  private running: Promise<PendingRun> | null = null;
  private stopped = false;

  constructor(private readonly deps: PendingThumbnailsDeps) {}

  /** Whether this host can make thumbnails at all. */
  get canMake(): boolean {
    return this.deps.imageEngine.name !== 'header-only';
  }

  /** Starts a run unless one is under way; resolves when that run ends. Never rejects. */
  kick(): Promise<PendingRun> {
    if (!this.canMake || this.stopped) return Promise.resolve({ made: 0, refused: 0, left: 0 });
    this.running ??= this.run()
      .catch((error: unknown): PendingRun => {
        this.deps.logger.warn('Pending thumbnails were not made.', {
          error: error instanceof Error ? error.name : typeof error,
        });
        return { made: 0, refused: 0, left: 0 };
      })
      .finally(() => (this.running = null));
    return this.running;
  }

  /** Makes thumbnails again after {@link stop} (the gallery changed folder). */
  resume(): void {
    this.stopped = false;
  }

  /** Lets the run under way finish its image, then ends it. */
  async stop(): Promise<void> {
    this.stopped = true;
    await this.running;
  }

  private async run(): Promise<PendingRun> {
    const tried = new Set<string>();
    const counts = { made: 0, refused: 0, left: 0 };
    while (!this.stopped) {
      const ids = this.deps.history
        .withPendingThumbnails(tried.size + BATCH)
        .filter((id) => !tried.has(id));
      if (ids.length === 0) break;
      for (const id of ids) {
        tried.add(id);
        if (this.stopped) break;
        await this.task(id, counts);
      }
    }
    return counts;
  }

  private async task(localId: string, counts: { made: number; refused: number; left: number }) {
    const record = this.deps.records.get(localId);
    for (const image of record?.images.filter(isPending) ?? []) {
      const result = await this.deps.make(image).catch((error: unknown): SavedThumbnail => ({
        kind: 'later',
        why: error instanceof Error ? error.name : 'unexpected',
      }));
      if (result.kind === 'later') {
        counts.left += 1;
        this.deps.logger.info('Thumbnail still pending.', {
          localId,
          index: image.index,
          why: result.why,
        });
        continue;
      }
      counts[result.kind === 'made' ? 'made' : 'refused'] += 1;
      this.edit(localId, image.index, result);
    }
  }

  private edit(localId: string, index: number, result: SavedThumbnail): void {
    try {
      this.deps.records.edit(localId, (current: TaskRecord) => ({
        ...current,
        images: current.images.map((image) =>
          image.index === index && isPending(image) ? applied(image, result) : image,
        ),
      }));
    } catch (error) {
      this.deps.logger.warn('A made thumbnail was not recorded.', {
        localId,
        error: error instanceof Error ? error.name : typeof error,
      });
    }
  }
}
