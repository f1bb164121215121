/**
 * The fields a newer Pictor wrote in a task's `pictor.json` that this version does not know (its
 * own, the envelope's, the request's, each image's): an archive that newer Pictor exported, taken
 * in here and one day back there, must not lose them. A write of a task the library has keeps a
 * stored record's by one rule (history-statements.ts RECORD_KEEPING_UNKNOWN; gallery
 * sidecar-kept.ts for `pictor.json`); an import's new task keeps the archive's by the same rule,
 * in the history and in the task's `pictor.json`. They come from a file anyone could write: only
 * carried, never read as anything, within the sidecar reader's cap (read bounded), and with every
 * key the process holds scrubbed out of each string and name in them; should the whole still
 * carry one (a key spelt across two values), none of them is kept.
 */
import { keptOfSidecar, type KeptOfSidecar } from '../../gallery';
import { scrubbedValue } from './export-scrub';
import type { ImportKeyScrubber } from './import-kept-id';

/** What an import's new task carries of its archive's sidecar. */
export interface CarriedFields {
  /** For the task's `pictor.json` (gallery `withKept`). */
  readonly sidecar: KeptOfSidecar;
  /**
   * For the history: a record's JSON holding only those fields (each image's beside its `index`),
   * merged into the record written by the write's own rule.
   */
  readonly record: string;
}

type Fields = Readonly<Record<string, unknown>>;
const isEmpty = (fields: Fields) => Object.keys(fields).length === 0;

/** What the sidecar's `text` carries (see the file's comment); null: nothing, or a key in it. */
export function carriedOf(text: string, scrub: ImportKeyScrubber): CarriedFields | null {
  const kept = keptOfSidecar(text);
  if (kept.newer) return null;
  if (isEmpty(kept.envelope) && isEmpty(kept.record) && isEmpty(kept.request) && !kept.images.size)
    return null;
  const clean = (fields: Fields) => scrubbedValue(fields, scrub) as Fields;
  const sidecar: KeptOfSidecar = {
    newer: false,
    envelope: clean(kept.envelope),
    record: clean(kept.record),
    request: clean(kept.request),
    images: new Map([...kept.images].map(([index, fields]) => [index, clean(fields)])),
  };
  const record = JSON.stringify({
    ...sidecar.record,
    request: sidecar.request,
    images: [...sidecar.images].map(([index, fields]) => ({ ...fields, index })),
  });
  const whole = JSON.stringify(sidecar.envelope) + record;
  return scrub(whole) === whole ? { sidecar, record } : null;
}
