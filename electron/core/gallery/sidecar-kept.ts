/**
 * What a task's `pictor.json` already holds that a write of this version must not lose: a newer
 * Pictor's. A sidecar of a newer format is not written over at all (this version would replace
 * what it cannot read with what it can: a downgrade must lose nothing); one of this format keeps
 * the fields this version does not know, its own and its record's (a newer release may add an
 * optional field without a new format, as the history's records got `seed`). A field this version
 * knows is the new record's alone. The file was read from a folder anyone could write: what is
 * kept is only carried, never read as anything, and within the reader's cap (a text past it is
 * written without them, so a rebuild can still read the task).
 */
import { TASK_KEYS } from '../../../shared/domain/record-check';
import { MAX_SIDECAR_BYTES, SIDECAR_APP, SIDECAR_VERSION } from './sidecar';

/** What the sidecar there holds of a newer Pictor's. */
export type KeptOfSidecar =
  | { readonly newer: true }
  | {
      readonly newer: false;
      readonly envelope: Readonly<Record<string, unknown>>;
      readonly record: Readonly<Record<string, unknown>>;
    };

const NOTHING: KeptOfSidecar = { newer: false, envelope: {}, record: {} };
const ENVELOPE_KEYS = new Set(['app', 'version', 'record']);
const RECORD_KEYS = new Set(TASK_KEYS);

const isObject = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

function unknownFields(value: Record<string, unknown>, known: ReadonlySet<string>) {
  return Object.fromEntries(Object.entries(value).filter(([key]) => !known.has(key)));
}

/** What the sidecar's `text` (null: none, or not readable) holds that a write must keep. */
export function keptOfSidecar(text: string | null): KeptOfSidecar {
  if (text === null) return NOTHING;
  let json: unknown;
  try {
    json = JSON.parse(text);
  } catch {
    return NOTHING;
  }
  if (!isObject(json) || json['app'] !== SIDECAR_APP) return NOTHING;
  const version = json['version'];
  if (typeof version === 'number' && version > SIDECAR_VERSION) return { newer: true };
  if (version !== SIDECAR_VERSION) return NOTHING;
  const record = isObject(json['record']) ? unknownFields(json['record'], RECORD_KEYS) : {};
  return { newer: false, envelope: unknownFields(json, ENVELOPE_KEYS), record };
}

/**
 * `text` (sidecarText's, of the new record) with what `kept` carries; `text` itself when nothing
 * is kept or the whole would pass the reader's cap.
 */
export function withKept(text: string, kept: KeptOfSidecar): string {
  if (kept.newer) return text;
  if (Object.keys(kept.envelope).length + Object.keys(kept.record).length === 0) return text;
  const sidecar = JSON.parse(text) as Record<string, unknown> & { record: object };
  const whole = { ...sidecar, record: { ...sidecar.record, ...kept.record }, ...kept.envelope };
  const indented = `${JSON.stringify(whole, null, 2)}\n`;
  if (Buffer.byteLength(indented) <= MAX_SIDECAR_BYTES) return indented;
  const compact = `${JSON.stringify(whole)}\n`;
  return Buffer.byteLength(compact) <= MAX_SIDECAR_BYTES ? compact : text;
}
