/**
 * What Pictor says of a saved image whose own metadata carried a held key and lost it
 * (`ImageRecord.keyRemoved`, core/download/key-intake.ts): one label and one sentence, in the
 * main catalogue, so the window (the viewer, task details) says it in the language shown and
 * `pictor info` in English, the same words; `list --json` and the MCP tools give the value itself.
 * An export's summary (library/archive/export-library.ts: `keyRemoved`, the images so among those
 * it wrote) says how many, in one sentence: the window's Settings › Library and `pictor export`.
 */
import type { ImageRecord } from '../domain/task-record';
import { sentence, type Sentence } from './sentence';

/** The label of the row that says it. */
export const KEY_REMOVED_LABEL: Sentence = sentence('image.keyRemoved');

/** What was left out of the image: the part that carried the key, and its credentials with it. */
export function keyRemovedSentence(removed: NonNullable<ImageRecord['keyRemoved']>): Sentence {
  return sentence(
    removed === 'credentials' ? 'image.keyRemoved.credentials' : 'image.keyRemoved.metadata',
  );
}

/** How many of an export's images are so (ExportSummary.keyRemoved); said only when some are. */
export function keyRemovedExportedSentence(count: number): Sentence {
  return sentence('image.keyRemoved.exported', { count });
}
