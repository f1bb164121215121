/**
 * What a task's `pictor.json` already holds that a write of this version must not lose: a newer
 * Pictor's. A sidecar of a newer format is not written over at all (this version would replace
 * what it cannot read with what it can: a downgrade must lose nothing); one of this format keeps
 * the fields this version does not know, its own, its record's, its request's and each image's
 * (on the new image of its `index`, as the history's writes keep them: history-statements.ts
 * RECORD_KEEPING_UNKNOWN) (a newer release may add an
 * optional field without a new format, as the history's records got `seed`). A field this version
 * knows is the new record's alone. The file was read from a folder anyone could write: what is
 * kept is only carried, never read as anything, and within the reader's cap (a text past it is
 * written without them, so a rebuild can still read the task).
 */
import { IMAGE_KEYS, REQUEST_KEYS, TASK_KEYS } from '../../../shared/domain/record-check';
import { MAX_SIDECAR_BYTES, SIDECAR_APP, SIDECAR_VERSION } from './sidecar';

/** What the sidecar there holds of a newer Pictor's. */
export type KeptOfSidecar =
  | { readonly newer: true }
  | {
      readonly newer: false;
      readonly envelope: Readonly<Record<string, unknown>>;
      readonly record: Readonly<Record<string, unknown>>;
      /** The request's unknown fields. */
      readonly request: Readonly<Record<string, unknown>>;
      /** Each image's unknown fields, by its `index` (the first image of an index). */
      readonly images: ReadonlyMap<number, Readonly<Record<string, unknown>>>;
    };

type Fields = Readonly<Record<string, unknown>>;

const NOTHING: KeptOfSidecar = {
  newer: false,
  envelope: {},
  record: {},
  request: {},
  images: new Map(),
};
const ENVELOPE_KEYS = new Set(['app', 'version', 'record']);
const RECORD_KEYS = new Set(TASK_KEYS);
const REQUEST_KEY_SET = new Set(REQUEST_KEYS);
const IMAGE_KEY_SET = new Set(IMAGE_KEYS);

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
  const stored = isObject(json['record']) ? json['record'] : {};
  const request = isObject(stored['request'])
    ? unknownFields(stored['request'], REQUEST_KEY_SET)
    : {};
  return {
    newer: false,
    envelope: unknownFields(json, ENVELOPE_KEYS),
    record: unknownFields(stored, RECORD_KEYS),
    request,
    images: imagesKept(stored['images']),
  };
}

/** The unknown fields of each image of a stored list, by its `index` (the first of an index). */
function imagesKept(images: unknown): Map<number, Fields> {
  const kept = new Map<number, Fields>();
  if (!Array.isArray(images)) return kept;
  for (const image of images) {
    if (!isObject(image) || typeof image['index'] !== 'number' || kept.has(image['index']))
      continue;
    const fields = unknownFields(image, IMAGE_KEY_SET);
    if (Object.keys(fields).length > 0) kept.set(image['index'], fields);
  }
  return kept;
}

const isEmpty = (fields: Fields) => Object.keys(fields).length === 0;

/** `own` with the fields of `kept` it lacks after its own (what it has stays its own). */
function after(own: Fields, kept: Fields): Record<string, unknown> {
  return { ...own, ...Object.fromEntries(Object.entries(kept).filter(([key]) => !(key in own))) };
}

/**
 * The new record (an object: sidecarText's) with the unknown fields of `kept` merged in, by the
 * history's rule (history-statements.ts RECORD_KEEPING_UNKNOWN): its own and its request's, and
 * each image's into the new image of the same `index`; a field the new record has stays its own.
 */
function recordWithKept(
  record: Record<string, unknown>,
  kept: Extract<KeptOfSidecar, { newer: false }>,
): Record<string, unknown> {
  const whole: Record<string, unknown> = after(record, kept.record);
  if (!isEmpty(kept.request) && isObject(record['request'])) {
    whole['request'] = after(record['request'], kept.request);
  }
  if (kept.images.size > 0 && Array.isArray(record['images'])) {
    whole['images'] = record['images'].map((image: unknown) => {
      const fields = isObject(image) ? kept.images.get(image['index'] as number) : undefined;
      return fields && isObject(image) ? after(image, fields) : image;
    });
  }
  return whole;
}

/**
 * `text` (sidecarText's, of the new record) with what `kept` carries; `text` itself when nothing
 * is kept or the whole would pass the reader's cap.
 */
export function withKept(text: string, kept: KeptOfSidecar): string {
  if (kept.newer) return text;
  if (
    isEmpty(kept.envelope) &&
    isEmpty(kept.record) &&
    isEmpty(kept.request) &&
    kept.images.size === 0
  )
    return text;
  const sidecar = JSON.parse(text) as Record<string, unknown> & { record: Record<string, unknown> };
  const whole = { ...sidecar, record: recordWithKept(sidecar.record, kept), ...kept.envelope };
  const indented = `${JSON.stringify(whole, null, 2)}\n`;
  if (Buffer.byteLength(indented) <= MAX_SIDECAR_BYTES) return indented;
  const compact = `${JSON.stringify(whole)}\n`;
  return Buffer.byteLength(compact) <= MAX_SIDECAR_BYTES ? compact : text;
}
