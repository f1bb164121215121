/**
 * A task the library kept under an id that carries a key the process holds (stored before typed
 * ids were checked: TaskEngine.track refuses such an id now). Its id is written in more places
 * than the history: the cost ledger, the task's `pictor.json`, the XMP packet beside an image with
 * Content Credentials, each saved image's own metadata (the XMP packet inside it and a PNG's
 * `parameters` text: provenance.ts), the log line of each change of the task and the page's copy
 * of the record. All of them are made from the record, so the key is redacted from the record
 * once, here (from every text of it: a tracked task's prompt and the service's addresses for the
 * task were made from the id), and every one of them is made again from it: the engine's edit writes the history
 * and its ledger, announces the task (the log line and the page take the redacted id) and writes
 * `pictor.json` and the XMP sidecars; each image file holding Pictor's packet is then rewritten
 * with the redacted one (embed-triage.ts, `remake`: atomically, the pixels' bytes copied as they
 * are; a file with Content Credentials is never edited, its packet is the sidecar's). The key's
 * part of the id becomes "[redacted]", as the log redacts it; prompt, images and costs stay.
 */
import { isJsonObject } from '../../../shared/domain/plain-object';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { GALLERY_MAX_IMAGE_BYTES } from '../../../shared/domain/limits';
import { silentLogger, type Logger } from '../../ports/logger';
import { EngineInputError } from '../engine';
import { codeOrMessage } from '../errors';
import { editImage, embedTriageInFile, kindOfImage, savedFile } from '../gallery';
import type { ExportGallery } from './export-copy';

export interface KeptKeyIdDeps {
  /** The engine: an edit writes the record, announces it and writes its sidecars. */
  readonly records: {
    get(localId: string): TaskRecord | undefined;
    edit(localId: string, change: (record: TaskRecord) => TaskRecord): TaskRecord;
    whenWritten(localIds: readonly string[]): Promise<unknown>;
  };
  readonly gallery: ExportGallery;
  readonly logger?: Logger;
}

/**
 * Text with every key the process holds scrubbed out, in every encoding an echo of it is known by
 * (secrets/key-echo.ts `scrubKey`, the log's redactor: logging/redaction.ts `secretRedactor`).
 */
export type KeyScrubber = (text: string) => string;

/**
 * `value` (a task's record, or the page's copy of it) with `scrub` applied to every text in it:
 * what was made from a kept id goes with it (a tracked task's prompt, `Task <id> (created outside
 * Pictor)`: engine/request-check.ts; the addresses the service gave for the task: `handles`).
 */
export function withTextsScrubbed<T>(value: T, scrub: KeyScrubber): T {
  if (typeof value === 'string') return scrub(value) as T;
  if (Array.isArray(value))
    return value.map((item: unknown) => withTextsScrubbed(item, scrub)) as T;
  if (!isJsonObject(value)) return value;
  const entries = Object.entries(value).map(([name, item]) => [
    name,
    withTextsScrubbed(item, scrub),
  ]);
  return Object.fromEntries(entries) as T;
}

/** Rewrites the packet inside each saved image of `record` that holds Pictor's own. */
async function remakeImages(deps: KeptKeyIdDeps, record: TaskRecord): Promise<void> {
  const logger = deps.logger ?? silentLogger;
  for (const image of record.images) {
    const kind = kindOfImage(image);
    // A sidecar named in the record is Pictor's packet beside a signed file: written by the edit.
    if (image.state !== 'saved' || image.xmpFile !== undefined || kind === undefined) continue;
    try {
      const path = savedFile(deps.gallery, image);
      const result = await embedTriageInFile(
        path,
        { record, image, kind, remake: true },
        {
          root: deps.gallery.root,
          maxBytes: GALLERY_MAX_IMAGE_BYTES,
          appVersion: deps.gallery.appVersion ?? 'unknown',
        },
      );
      if ('written' in result) {
        const ref = { localId: record.localId, index: image.index };
        editImage(deps.records, ref, (now) =>
          now.file === image.file ? { ...now, bytes: result.written } : now,
        );
      } else if ('refused' in result) {
        logger.warn('An image kept its old task id in its metadata.', {
          localId: record.localId,
          index: image.index,
          reason: result.refused,
        });
      }
    } catch (error) {
      logger.warn('An image kept its old task id in its metadata.', {
        localId: record.localId,
        index: image.index,
        reason: codeOrMessage(error),
      });
    }
  }
}

/**
 * Scrubs the task id of the task `localId` with `scrub` and brings every file made from it to the
 * scrubbed record (see the module comment). Returns the redacted record, or `null` when the
 * scrub leaves its id as it is (nothing is written). Resolves once its sidecars are on disk.
 */
export async function redactKeptKeyId(
  deps: KeptKeyIdDeps,
  localId: string,
  scrub: KeyScrubber,
): Promise<TaskRecord | null> {
  const kept = deps.records.get(localId);
  if (kept?.taskId == null || scrub(kept.taskId) === kept.taskId) return null;
  const redacted = deps.records.edit(localId, (now) =>
    now.taskId === null ? now : withTextsScrubbed(now, scrub),
  );
  await remakeImages(deps, redacted);
  await deps.records.whenWritten([localId]);
  return deps.records.get(localId) ?? redacted;
}

/** TaskEngine.track's refusal of an id that carries a key the process holds (service/task-id.ts). */
export function refusedForKeyInId(error: unknown): boolean {
  return (
    error instanceof EngineInputError && error.sentence?.key === 'error.service.taskIdCarriesKey'
  );
}

/** Where a refused track looks for the task it named: the history, by the service's id. */
interface KeptIdLookup {
  getByTaskId(endpoint: string, taskId: string): TaskRecord | undefined;
  findByTaskId(taskId: string): TaskRecord | undefined;
}

/**
 * After a track of `typed` was refused for carrying a key the process holds (TaskEngine.track,
 * `error.service.taskIdCarriesKey`, before it touched any record): the task the history kept
 * under that id, as typed or as the check trims it, at `endpoint` (`null`: the engine's own) or
 * any other, cleaned by {@link redactKeptKeyId}. The one way both fronts take (the CLI's `track`,
 * the app's `tasks:track`). Returns the redacted record, or `null` when the library kept none.
 */
export async function redactRefusedTrack(
  deps: KeptKeyIdDeps & { readonly history: KeptIdLookup },
  typed: string,
  endpoint: string | null,
  scrub: KeyScrubber,
): Promise<TaskRecord | null> {
  const kept = [...new Set([typed, typed.trim()])]
    .map(
      (id) =>
        (endpoint === null ? undefined : deps.history.getByTaskId(endpoint, id)) ??
        deps.history.findByTaskId(id),
    )
    .find((record) => record?.taskId != null && scrub(record.taskId) !== record.taskId);
  return kept === undefined ? null : redactKeptKeyId(deps, kept.localId, scrub);
}
