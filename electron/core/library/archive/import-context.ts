/** What importing one task needs (import-task.ts, import-merge.ts) and what it reports. */
import type { ImageRecord } from '../../../../shared/domain/task-record';
import type { ImageCheck } from '../../download';
import type { ArchiveLimits } from './archive-limits';
import type { Refusal } from './archive-errors';
import type { ImportHistory } from './batched-history';
import type { ImportKeyScrubber } from './import-kept-id';
import type { PlannedImage } from './import-plan';
import { silentLogger } from '../../../ports/logger';
import type { TriageDropped } from '../../history';

export interface ImportContext {
  readonly root: string;
  readonly history: ImportHistory;
  readonly limits: ArchiveLimits;
  /** The gallery's check of a downloaded image, which every imported image passes too. */
  readonly check: ImageCheck;
  readonly signal?: AbortSignal;
  /** Called with the bytes of each file read. */
  readonly onBytes: (bytes: number) => void;
  /** Folders chosen by tasks being imported right now (see import-task.ts). */
  readonly reservedFolders: Set<string>;
  /** Runs `work` when no other task holding one of `keys` is being imported (keyed-lock.ts). */
  readonly oneAtATime: <T>(keys: readonly string[], work: () => Promise<T>) => Promise<T>;
  /** Scrubs every key the process holds from a task id that carries one (import-kept-id.ts). */
  readonly scrubKeys: ImportKeyScrubber;
}

export interface TaskOutcome {
  readonly addedTask: boolean;
  readonly addedImages: number;
  readonly duplicateTask: boolean;
  readonly duplicateImages: number;
  readonly refused: Refusal[];
  /** Cancelled after some images were added to an existing task (they stay, and are counted). */
  readonly stopped?: boolean;
  /** The source's tags and boards its images could not keep (import-triage.ts). */
  readonly dropped?: TriageDropped;
}

export const REFUSED = (refused: Refusal[]): TaskOutcome => ({
  addedTask: false,
  addedImages: 0,
  duplicateTask: false,
  duplicateImages: 0,
  refused,
});

/** How stageImage (import-image.ts) copies and checks an image for `context`. */
export function stageOptions(context: ImportContext) {
  return {
    maxBytes: context.limits.maxImageBytes,
    check: context.check,
    ...(context.signal ? { signal: context.signal } : {}),
  };
}

/** The source's file for the record's image `index`: the kind the record names, else the first. */
export function pickImage(
  images: readonly PlannedImage[],
  index: number,
  record?: ImageRecord,
): PlannedImage | undefined {
  const candidates = images.filter((image) => image.index === index);
  return candidates.find((image) => record?.mime?.endsWith(image.kind)) ?? candidates[0];
}

/**
 * How an import brings the XMP sidecars of a task's images in line with their triage
 * (gallery/metadata/xmp-sidecar-sync.ts): a packet made again names the version its archive's
 * packet names, else none known.
 */
export function xmpSyncOptions(root: string) {
  return { root, appVersion: 'unknown', logger: silentLogger };
}
