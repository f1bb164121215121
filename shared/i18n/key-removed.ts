/**
 * What Pictor says of a saved image whose own metadata carried a held key and lost it
 * (`ImageRecord.keyRemoved`, core/download/key-intake.ts): one label and one sentence, in the
 * main catalogue, so the window (the viewer, task details) says it in the language shown and
 * `pictor info` in English, the same words; `list --json` and the MCP tools give the value itself.
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
