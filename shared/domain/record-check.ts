/**
 * A history record checked without running its zod schema, for the shape nearly every stored
 * record has: a plain prompt, model and size, saved images with their triage, no error, cost,
 * template or compare. zod's first parse of the task schema in a process costs more than a
 * one-record command's own work (the schema's lazy set-up, then about 0.2 ms a record), and a
 * command that prints a page (`pictor list`) parses 50. The window checks every record it draws
 * the same way (renderer/store/record-problem.ts): building the schema was about 7 ms of the
 * first frame with task rows, which the empty history's first frame does not pay.
 *
 * {@link plainTaskRecord} answers only where it is sure: a record it returns is exactly what
 * `taskRecordSchema.parse` returns for the same input (the same fields in the same order, unknown
 * keys left out, an image's missing `favourite` made false); for anything else (a field it does
 * not check, a value zod would trim, clean, replace or refuse) it answers `undefined` and the
 * caller parses with the schema ({@link parseTaskRecord}). A library file may be crafted: the
 * records are checked as strictly as the schema checks them (differential tests:
 * tests/unit/shared/domain/record-check.test.ts).
 */
import {
  HOLD_REASONS,
  TASK_ORIGINS,
  IMAGE_MIMES,
  IMAGE_STATES,
  KEY_REMOVED,
  TASK_STATUSES,
  repeatsAnIndex,
  taskRecordSchema,
  type TaskRecord,
} from './task-record';
import {
  MAX_ACCOUNT_CHARS,
  MAX_COUNT,
  MAX_DATE_MS,
  MAX_ENDPOINT_CHARS,
  MAX_IMAGE_BYTES,
  MAX_IMAGE_SIDE,
  MAX_IMAGES_PER_TASK,
  MAX_LOCAL_ID_CHARS,
  MAX_MESSAGE_CHARS,
  MAX_PATH_CHARS,
  MAX_TASK_ID_CHARS,
  MAX_URL_CHARS,
  MIN_DATE_MS,
  TASK_ID_CONTROL,
  REQUEST_LIMITS,
  TASKS_PER_ENGINE_SUBMIT,
} from './limits';
import { PROVIDER_IDS } from './providers';
import { MAX_RATING, MAX_RAW_TAG_CHARS, MAX_RAW_TAGS, TRIAGE_FLAGS } from './triage';
import { SIZE_PATTERN } from '../service/wire';

/** A field's check: true when zod takes the value as it is (no transform, default or catch). */
type Check = (value: unknown) => boolean;
type Plain = Record<string, unknown>;

const isPlain = (value: unknown): value is Plain =>
  typeof value === 'object' &&
  value !== null &&
  !Array.isArray(value) &&
  Object.getPrototypeOf(value) === Object.prototype;

const int =
  (min: number, max: number): Check =>
  (value) =>
    typeof value === 'number' && Number.isSafeInteger(value) && value >= min && value <= max;
const text =
  (max: number, min = 0): Check =>
  (value) =>
    typeof value === 'string' && value.length >= min && value.length <= max;
/** A string zod's `.trim()` leaves as it is. */
const trimmed =
  (max: number, min = 1): Check =>
  (value) =>
    text(max, min)(value) && (value as string).trim() === value;
const oneOf = (values: readonly string[]): Check => {
  const set = new Set(values);
  return (value) => typeof value === 'string' && set.has(value);
};
const nullable =
  (check: Check): Check =>
  (value) =>
    value === null || check(value);
const boolean: Check = (value) => typeof value === 'boolean';
const date = int(MIN_DATE_MS, MAX_DATE_MS);
const strings =
  (max: number, chars: number): Check =>
  (value) =>
    Array.isArray(value) && value.length <= max && value.every(text(chars));
/**
 * A model name the schema's cleaning keeps as it is: printable ASCII, no space at either end
 * (shared/text/shown-name.ts takes out control and format characters only, then trims).
 */
const PLAIN_NAME = /^[\x21-\x7e](?:[\x20-\x7e]*[\x21-\x7e])?$/;
const modelName: Check = (value) =>
  typeof value === 'string' && value.length <= REQUEST_LIMITS.model && PLAIN_NAME.test(value);

/**
 * The request's fields checked here. A field of the schema's not checked here (inputs, params, seed,
 * workflow), present, sends the record to zod, as any such field of the task or an image does.
 */
const REQUEST: Readonly<Record<string, Check>> = {
  prompt: trimmed(REQUEST_LIMITS.prompt),
  model: modelName,
  size: (value) => typeof value === 'string' && SIZE_PATTERN.test(value),
  quality: trimmed(REQUEST_LIMITS.quality),
};
const REQUEST_REQUIRED = new Set(['prompt']);

const IMAGE: Readonly<Record<string, Check>> = {
  index: int(0, MAX_IMAGES_PER_TASK - 1),
  url: nullable(text(MAX_URL_CHARS)),
  state: oneOf(IMAGE_STATES),
  file: text(MAX_PATH_CHARS),
  thumbnail: text(MAX_PATH_CHARS),
  thumbnailPending: (value) => value === true,
  width: int(1, MAX_IMAGE_SIDE),
  height: int(1, MAX_IMAGE_SIDE),
  bytes: int(0, MAX_IMAGE_BYTES),
  mime: oneOf(IMAGE_MIMES),
  attempts: int(0, MAX_COUNT),
  error: text(MAX_MESSAGE_CHARS),
  savedAt: date,
  expiredAt: date,
  favourite: boolean,
  rating: int(1, MAX_RATING),
  flag: oneOf(TRIAGE_FLAGS),
  tags: strings(MAX_RAW_TAGS, MAX_RAW_TAG_CHARS),
  boards: strings(MAX_RAW_TAGS, MAX_RAW_TAG_CHARS),
  triagedAt: date,
  xmpFile: text(MAX_PATH_CHARS),
  keyRemoved: oneOf(KEY_REMOVED),
};
const IMAGE_REQUIRED = new Set(['index', 'url', 'state', 'attempts']);

/** The task's fields checked here but `request` and `images` (below). */
const TASK: Readonly<Record<string, Check>> = {
  localId: text(MAX_LOCAL_ID_CHARS, 1),
  taskId: nullable(
    (value) => text(MAX_TASK_ID_CHARS, 1)(value) && !TASK_ID_CONTROL.test(value as string),
  ),
  origin: oneOf(TASK_ORIGINS),
  endpoint: text(MAX_ENDPOINT_CHARS, 1),
  account: text(MAX_ACCOUNT_CHARS),
  status: oneOf(TASK_STATUSES),
  hold: nullable(oneOf(HOLD_REASONS)),
  error: (value) => value === null,
  createdAt: date,
  updatedAt: date,
  submittedAt: nullable(date),
  finishedAt: nullable(date),
  watchStartedAt: nullable(date),
  polls: int(0, MAX_COUNT),
  lastPolledAt: nullable(date),
  favourite: boolean,
  folder: nullable(text(MAX_PATH_CHARS)),
  imported: boolean,
  provider: oneOf(PROVIDER_IDS),
  resultsExpireAt: date,
  canceledByUserAt: date,
  stoppedWatchingAt: date,
  batchId: text(MAX_LOCAL_ID_CHARS, 1),
  batchIndex: int(0, TASKS_PER_ENGINE_SUBMIT.max - 1),
  listedAt: date,
};

/** A level of the record: the schema's keys in its order (zod writes a parsed object's fields in
 * this order), the fields checked here and those that must be present. */
interface Level {
  readonly keys: readonly string[];
  readonly checks: Readonly<Record<string, Check>>;
  readonly required: ReadonlySet<string>;
}
/**
 * The task schema's fields in their order, `?` after those a record may leave out, written out so
 * that a check does not build the schema (shared/domain/lazy-schema.ts); record-check.test holds
 * the keys to the schema's, and its field-by-field cases the optional ones.
 */
const TASK_FIELDS = [
  'localId taskId origin endpoint account request reportedModel? seed? status hold error',
  'createdAt updatedAt submittedAt finishedAt watchStartedAt polls lastPolledAt images favourite',
  'folder imported? provider? handles? resultsExpireAt? canceledByUserAt? stoppedWatchingAt?',
  'batchId? batchIndex? cost? board? compare? template? sendState? listedAt?',
]
  .join(' ')
  .split(' ');
export const TASK_KEYS: readonly string[] = TASK_FIELDS.map((field) => field.replace('?', ''));
const TASK_REQUIRED = new Set(TASK_FIELDS.filter((field) => !field.endsWith('?')));
/** The image schema's keys in their order (its required ones: IMAGE_REQUIRED). */
export const IMAGE_KEYS: readonly string[] = [
  'index url state file thumbnail thumbnailPending width height bytes mime attempts error',
  'errorSentence savedAt expiredAt favourite rating flag tags boards triagedAt xmpFile',
  'contentCredentials keyRemoved',
]
  .join(' ')
  .split(' ');
/** The request schema's keys in their order. */
export const REQUEST_KEYS: readonly string[] =
  'prompt model size quality inputs params seed workflow'.split(' ');
const TASK_LEVEL: Level = {
  keys: TASK_KEYS,
  checks: TASK,
  required: TASK_REQUIRED,
};
const IMAGE_LEVEL: Level = {
  keys: IMAGE_KEYS,
  checks: IMAGE,
  required: IMAGE_REQUIRED,
};
const REQUEST_LEVEL: Level = {
  keys: REQUEST_KEYS,
  checks: REQUEST,
  required: REQUEST_REQUIRED,
};

/**
 * `input`'s fields of `level` (in its order) when each is present and checked, or absent and not
 * required; unknown keys left out. A field with no check is `nested`'s answer. `undefined` when
 * any field is not sure.
 */
function checkedObject(
  input: unknown,
  level: Level,
  nested: (key: string, value: unknown) => unknown = () => undefined,
): Plain | undefined {
  if (!isPlain(input)) return undefined;
  const out: Plain = {};
  for (const key of level.keys) {
    if (!Object.hasOwn(input, key)) {
      if (level.required.has(key)) return undefined;
      continue;
    }
    const value = input[key];
    const check = level.checks[key];
    const kept = check === undefined ? nested(key, value) : check(value) ? copy(value) : undefined;
    if (kept === undefined) return undefined;
    out[key] = kept;
  }
  return out;
}

/** A checked value as zod hands it back: a new array for an array (of strings here). */
const copy = (value: unknown): unknown =>
  Array.isArray(value) ? [...(value as unknown[])] : value;

function plainImage(input: unknown): Plain | undefined {
  const image = checkedObject(input, IMAGE_LEVEL);
  if (image === undefined || Object.hasOwn(image, 'favourite')) return image;
  // The schema's default, in the schema's place for it.
  const out: Plain = {};
  for (const key of IMAGE_LEVEL.keys) {
    if (key === 'favourite') out[key] = false;
    else if (Object.hasOwn(image, key)) out[key] = image[key];
  }
  return out;
}

function plainImages(input: unknown): Plain[] | undefined {
  if (!Array.isArray(input) || input.length > MAX_IMAGES_PER_TASK) return undefined;
  const images: Plain[] = [];
  for (const entry of input) {
    const image = plainImage(entry);
    if (image === undefined) return undefined;
    images.push(image);
  }
  // The schema's refusal of a repeated index, said by the schema (its issue's words).
  return repeatsAnIndex(images) ? undefined : images;
}

/**
 * What `taskRecordSchema.parse(input)` returns, when this check is sure of it; `undefined`
 * otherwise (the record may still parse: ask the schema).
 */
export function plainTaskRecord(input: unknown): TaskRecord | undefined {
  const record = checkedObject(input, TASK_LEVEL, (key, value) =>
    key === 'request'
      ? checkedObject(value, REQUEST_LEVEL)
      : key === 'images'
        ? plainImages(value)
        : undefined,
  );
  return record as TaskRecord | undefined;
}

/** `taskRecordSchema().safeParse(input)`'s answer: the record, or `undefined` when it fails. */
export function parseTaskRecord(input: unknown): TaskRecord | undefined {
  const plain = plainTaskRecord(input);
  if (plain !== undefined) return plain;
  const parsed = taskRecordSchema().safeParse(input);
  return parsed.success ? parsed.data : undefined;
}
