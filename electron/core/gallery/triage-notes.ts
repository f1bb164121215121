/**
 * What a sidecar's triage said that its record does not keep (shared/domain/triage.ts): a
 * rating outside 0–5 or a flag Pictor does not know is read as none, and tags and boards past
 * the limits, repeated or holding forbidden characters are dropped where records are stored.
 * Each such loss is one plain sentence, for the log and the CLI: the record still loads.
 */
import type { TaskRecord } from '../../../shared/domain/task-record';
import { cleanBoards, cleanTags } from '../../../shared/domain/triage';

/** What a raw image of the sidecar held (before the schema). */
interface RawTriage {
  readonly rating?: unknown;
  readonly flag?: unknown;
  readonly tags?: unknown;
  readonly boards?: unknown;
}

const shown = (value: unknown): string => JSON.stringify(value)?.slice(0, 40) ?? String(value);
/** How many of a raw list's entries the stored record does not keep. */
const dropped = (raw: unknown, kept: readonly string[] | undefined): number =>
  (Array.isArray(raw) ? raw.length : 0) - (kept?.length ?? 0);

/** The sentences for `raw` (the sidecar's record, unparsed) against `record` (parsed). */
export function triageNotes(raw: unknown, record: TaskRecord): string[] {
  const images = (raw as { images?: unknown } | null)?.images;
  if (!Array.isArray(images)) return [];
  const notes: string[] = [];
  record.images.forEach((image, position) => {
    const said = (images[position] ?? {}) as RawTriage;
    const which = `Image ${String(position + 1)}`;
    if (said.rating !== undefined && said.rating !== 0 && image.rating === undefined) {
      notes.push(
        `${which}: its rating ${shown(said.rating)} is not 0 to 5; it is read as unrated.`,
      );
    }
    const knownFlag = said.flag === undefined || said.flag === 'pick' || said.flag === 'reject';
    if (!knownFlag && image.flag === undefined) {
      notes.push(
        `${which}: its flag ${shown(said.flag)} is not pick or reject; it is read as none.`,
      );
    }
    const tags = dropped(said.tags, image.tags && cleanTags(image.tags).tags);
    if (tags > 0)
      notes.push(
        `${which}: ${String(tags)} of its tags were dropped (over 64, repeated or not allowed).`,
      );
    const boards = dropped(said.boards, image.boards && cleanBoards(image.boards).boards);
    if (boards > 0)
      notes.push(
        `${which}: ${String(boards)} of its boards were dropped (repeated or not allowed).`,
      );
  });
  return notes;
}
