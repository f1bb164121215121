/**
 * Limits of every date, count and string in the records Pictor keeps, declared once. The record
 * schemas (task-record.ts) apply them where a record is parsed: from the history database, from a
 * gallery sidecar, from the main process. A value outside them makes the record unreadable
 * instead of breaking whatever later formats, sorts or stores it.
 *
 * Each limit sits far beyond anything the app writes, so a record the app made always reads
 * back; they exist to stop junk (a date no formatter can show, a megabyte-long "id").
 */
import { z } from 'zod';
import {
  BIDI_CONTROLS,
  CONTROL_CHARACTERS,
  INVISIBLES,
  LINE_SEPARATORS,
  anyOf,
} from '../text/control-characters';
import { lazySchema } from './lazy-schema';

/**
 * Earliest date a record may carry: the Unix epoch. Not later: a computer whose clock was
 * reset (a dead clock battery) writes dates from 1970 or 1980, and the app must still be able
 * to save its own records; the window only has to keep dates formattable and orderable.
 */
export const MIN_DATE_MS = 0;
/** Latest date a record may carry: 2200-01-01T00:00:00Z (far below the 8.64e15 `Date` limit). */
export const MAX_DATE_MS = Date.UTC(2200, 0, 1);

/** Counters that only grow by one per event (polls, download attempts). */
export const MAX_COUNT = 1_000_000_000;
/**
 * Images one task may hold (also the largest image `index` plus one). A task is one prompt:
 * services send one to a few images for it. Small enough that a task's sidecar, with every
 * image's URL and paths, stays under the sidecar size cap (see electron/core/gallery/sidecar.ts).
 */
export const MAX_IMAGES_PER_TASK = 16;
/** Width or height of an image in pixels (sharp refuses far smaller images by default). */
export const MAX_IMAGE_SIDE = 1_000_000;
/**
 * Size of one image file as a record states it: a bound on junk only. No file is read up to it:
 * main reads a gallery file up to {@link GALLERY_MAX_IMAGE_BYTES}.
 */
export const MAX_IMAGE_BYTES = 2 ** 40;
/**
 * The download's cap on one image (the gallery's default `maxImageBytes`): a bigger body, or an
 * image a service sent inline that decodes to more, is refused.
 */
export const DOWNLOAD_MAX_IMAGE_BYTES = 64 * 1024 * 1024;
/**
 * The most main reads of one gallery or library image file, whatever it does with it: copy it
 * to the clipboard, drag it out, save a copy, serve it to the page, write metadata or triage into
 * it, export it, inspect it, take it as an edit, describe or compare input (the input store's cap
 * is this one). It is the largest image Pictor saves: the download's cap, which the metadata
 * Pictor writes into a saved image stays within. A bigger file in the gallery was put there by
 * someone else (a crafted folder, another local user, a file of several GB): it is refused with
 * a sentence before anything of it is read.
 */
export const GALLERY_MAX_IMAGE_BYTES = DOWNLOAD_MAX_IMAGE_BYTES;

/**
 * Most missing prices one cap's word lists (core/costs/cap-check.ts and the cost contract). Here,
 * not in shared/ipc/cost-contract.ts: the core's cap check would load that contract's schemas
 * with it on every command that opens the core.
 */
export const MAX_MISSING_PRICES = 20;

/** A search of prompts (the gallery's and Tasks'): the field takes no more, the request no more. */
export const MAX_SEARCH_CHARS = 500;

/** Our own id of a task (a UUID; the IPC contract accepts up to 100 characters). */
export const MAX_LOCAL_ID_CHARS = 100;
/** The service's id of a task (a submit answer's `id` is accepted up to this length). */
export const MAX_TASK_ID_CHARS = 1_000;
/**
 * What no task id may hold, wherever it comes from (a service's answer or a pasted id:
 * electron/core/service/task-id.ts; a history row, an archive's or a gallery folder's record:
 * task-record.ts): control characters, the bidirectional ones included (U+202E shows `abc\u202efed`
 * as `abcdef`), the line separators, and every character that draws nothing (a zero-width space,
 * a BOM, a tag character, a variation selector, a Hangul filler: `abc\u200bdef` shows as
 * `abcdef`). An id kept reads as it runs in the window and the CLI, two ids that show alike are
 * one id, and the window's "Copy task ID" can hand it over (`app:copyText` refuses the controls).
 */
export const TASK_ID_CONTROL = anyOf(
  [CONTROL_CHARACTERS, BIDI_CONTROLS, LINE_SEPARATORS, INVISIBLES],
  'u',
);
/** A service base URL (the settings accept up to 2,000 characters) or `demo:`. */
export const MAX_ENDPOINT_CHARS = 2_000;
/** An account fingerprint (a short hash). */
export const MAX_ACCOUNT_CHARS = 200;
/** An image URL: signed CDN URLs run to a few kilobytes (same figure as the image URL policy). */
export const MAX_URL_CHARS = 16_384;
/** A path relative to the gallery root (a few folders deep, each name at most 255 bytes). */
export const MAX_PATH_CHARS = 4_096;
/** The sentence of an error the user sees. */
export const MAX_MESSAGE_CHARS = 2_000;
/** The technical detail of an error, shown on demand. */
export const MAX_DETAIL_CHARS = 10_000;

/**
 * A generation request's text fields, in characters: the prompt, the model name and the quality
 * level. The request schema (shared/service/wire.ts), the form's checks, the settings' defaults
 * and the demo service all read them from here.
 */
export const REQUEST_LIMITS = { prompt: 32_000, model: 200, quality: 100 } as const;
/** Tasks one submit from the app makes (the count field, its default in Settings, the IPC call). */
export const TASKS_PER_SUBMIT = { min: 1, max: 10 } as const;
/**
 * Tasks one submit to the task engine may make: the CLI's `--count` and any other caller of the
 * core (the app's form asks for fewer, {@link TASKS_PER_SUBMIT}). The engine's refusal and the
 * CLI's usage line say the figures from here.
 */
export const TASKS_PER_ENGINE_SUBMIT = { min: 1, max: 100 } as const;
/** Task ids one batch action takes (delete, favourite, export… a selection); larger ones go in chunks. */
export const MAX_IDS_PER_BATCH = 1_000;
/**
 * Tasks ahead of one in a service's queue (fal's `queue_position`): a service says a few, or a few
 * thousand on a bad day. A larger figure is junk, and is not shown.
 */
export const MAX_QUEUE_POSITION = 1_000_000;
/**
 * Tasks a key runs at once on a service that limits them (BFL: 24), said while a new one waits
 * for room: far above any provider's limit, so a larger figure is junk.
 */
export const MAX_RUNNING_AT_LIMIT = 100_000;
/** The longest watch timeout Settings offers, in minutes (a week); 0 watches forever. */
export const MAX_WATCH_MINUTES = 7 * 24 * 60;

/**
 * A date in ms since the epoch: a whole number from {@link MIN_DATE_MS} to {@link MAX_DATE_MS}.
 * Built on first use (lazy-schema.ts), as the schemas made of it.
 */
export const dateMsSchema = lazySchema(() =>
  z
    .number()
    .int('A date must be a whole number of milliseconds.')
    .min(MIN_DATE_MS, 'The date is before 1970.')
    .max(MAX_DATE_MS, 'The date is after the year 2200.'),
);

/** True when `value` is a whole number from `range.min` to `range.max`. */
export function isWholeNumberIn(
  range: { readonly min: number; readonly max: number },
  value: number,
): boolean {
  return Number.isInteger(value) && value >= range.min && value <= range.max;
}

/** A whole number from `min` to `max`. */
export function boundedInt(min: number, max: number) {
  return z.number().int().min(min).max(max);
}

/** A string of at most `max` characters. */
export function boundedText(max: number) {
  return z.string().max(max);
}
