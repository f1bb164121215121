/**
 * The structure a service answer may have, beyond its size in bytes (answer-scan.ts reads it as
 * it arrives and refuses an answer past any of these before a single object is built). Each sits
 * far beyond what the five dialects send: a task answer is a few fields, one list of at most a
 * few images, and nesting a handful of levels deep.
 */
import { MAX_IMAGES_PER_TASK } from '../../../shared/domain/limits';

/**
 * Entries one list of an answer may have (`output.data` and each dialect's list of images among
 * them): Pictor keeps 16 images of a task, so a few hundred leaves room for any service's
 * listing, and a listing of millions is refused after a few kilobytes, never parsed.
 */
export const MAX_ANSWER_ENTRIES = 256;

/**
 * Levels of nesting (objects and lists inside each other) an answer may have. Real answers nest
 * a handful; a failure nested 10,000 levels deep is still read as the failure it is (an earlier
 * round's hostile answer). Every step that walks the parsed answer recursively (`JSON.stringify`
 * when inline payloads are left out of the key's search) manages this depth on the answer
 * worker's stack (answer-reader.ts gives it 4 MiB; 16,000 levels were measured to fit).
 */
export const MAX_ANSWER_DEPTH = 12_000;

/**
 * A string value this long that looks like an inline image (a `data:` URL, or nothing but base64)
 * leaves the answer as it is read, decoded as it arrives, when the answer may carry images
 * inline. A shorter one stays in the answer's text (within its usual limit) and is decoded there.
 */
export const INLINE_MIN_CHARS = 16 * 1024;

/**
 * Payloads one answer may have taken out and decoded: twice the images a task keeps. Any further
 * payload is still taken out of the answer's text, but not decoded (it is refused).
 */
export const MAX_TAKEN_PAYLOADS = 2 * MAX_IMAGES_PER_TASK;

/**
 * Entries of one list in a ComfyUI history answer (its profile's `listEntries`): an output node
 * lists every image of its batch, and ComfyUI's batches run to 4,096 images, so a genuine node
 * past 256 was never read and its task asked again without end. The first images a task keeps are
 * read, the rest counted in its notice (shared/service/wire.ts); the usual byte limit still bounds
 * the answer (each entry takes some 60 bytes).
 */
export const MAX_HISTORY_ENTRIES = 10_000;

/**
 * Entries of one list in a queue's answer (ComfyUI's `GET /queue`: one entry per waiting prompt).
 * A queue of hundreds of prompts is ordinary; it is read for a place (numbers), never kept, and
 * the usual byte limit still bounds it.
 */
export const MAX_QUEUE_ENTRIES = 10_000;
