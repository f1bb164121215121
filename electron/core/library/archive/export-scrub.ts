/**
 * What an export puts in its archive of a task, with every key the process holds scrubbed out:
 * an archive leaves the computer (it is shared, uploaded, kept for years), and an import scrubs
 * only a task's id on the way in (import-kept-id.ts). A task's sidecar is the history's record
 * with the fields a newer Pictor added to it (export-library.ts `sidecarOf`), which this version
 * only carries and never checked; a task kept under a key-carrying id the sweep has not reached
 * yet says it in its record, its folder's name need not, its images' metadata and a signed
 * image's XMP file beside it do (gallery/metadata/copy-packet.ts).
 *
 * A sidecar whose text carries none is written as it is (one scrub of its text: ~0.3 µs a
 * character, measured). One that does has each string in it (values and names, at any depth)
 * scrubbed, then, if the text still carries one (a key spelt out across two values), the text
 * whole, which the scrubber cuts one stretch per value, never the JSON between
 * (secrets/key-echo-spaced.ts); the record written is that one, and its images' packets and XMP
 * files are made from it.
 */
import type { ImageRecord, TaskRecord } from '../../../../shared/domain/task-record';
import { sidecarPlan, sidecarText, taskFolderName } from '../../gallery';
import type { ImportKeyScrubber } from './import-kept-id';

/** Text with every key the process holds scrubbed out (the core's: pictor-core.ts). */
export type ExportKeyScrubber = ImportKeyScrubber;

/** `value` with every string in it, and every name, through `scrub`. */
export function scrubbedValue(value: unknown, scrub: ExportKeyScrubber): unknown {
  if (typeof value === 'string') return scrub(value);
  if (Array.isArray(value)) return value.map((item) => scrubbedValue(item, scrub));
  if (value === null || typeof value !== 'object') return value;
  return Object.fromEntries(
    Object.entries(value).map(([name, item]) => [scrub(name), scrubbedValue(item, scrub)]),
  );
}

/** The record of a sidecar's text (sidecar.ts: `{ app, version, record }`). */
function recordOf(text: string): TaskRecord {
  return (JSON.parse(text) as { record: TaskRecord }).record;
}

function parsedOr(text: string, fallback: TaskRecord): TaskRecord {
  try {
    return recordOf(text);
  } catch {
    return fallback;
  }
}

/** A task as the archive holds it: its record (images' packets are made from it) and sidecar. */
interface ScrubbedTask {
  readonly record: TaskRecord;
  readonly folder: string;
  readonly sidecar: string;
}

/**
 * The task whose sidecar text is `text` (its folder in the archive `folder`) with every key
 * `scrub` knows taken out; `null` when the text carries none. A folder name that carries one is
 * made again from the scrubbed record (its prompt's words and local id, as the gallery names it).
 */
export function scrubbedTask(
  text: string,
  folder: string,
  scrub: ExportKeyScrubber,
): ScrubbedTask | null {
  if (scrub(text) === text) return null;
  let record = scrubbedValue(recordOf(text), scrub) as TaskRecord;
  const named = scrub(folder) === folder ? folder : taskFolderName(record).normalize('NFC');
  let sidecar = sidecarText({ ...record, folder: named });
  const whole = scrub(sidecar);
  if (whole !== sidecar) {
    sidecar = whole;
    // The scrubber keeps JSON whole; were it ever not to, the archive still holds no key (an
    // import refuses the sidecar it cannot read, and says so).
    record = parsedOr(whole, record);
  }
  return { record, folder: named, sidecar };
}

/** Image `image` of the task as the archive holds it (`record`: scrubbed, or as it is). */
export function ownOf(
  record: TaskRecord,
  image: ImageRecord,
): { readonly record: TaskRecord; readonly image: ImageRecord } {
  return { record, image: record.images.find((one) => one.index === image.index) ?? image };
}

/**
 * A signed image's XMP file (`bytes`) as the archive holds it: as it is when it carries no key
 * the process holds; else Pictor's packet made again from the record it goes with (its old one
 * named a kept key-carrying id: xmp-sidecar-sync.ts), and the text scrubbed whole.
 */
export function xmpWithoutKeys(
  bytes: Buffer,
  of: { readonly record: TaskRecord; readonly image: ImageRecord },
  scrub: ExportKeyScrubber,
): Buffer {
  const text = bytes.toString('utf8');
  if (scrub(text) === text) return bytes;
  const plan = sidecarPlan(of.record, of.image, text, 'unknown');
  const made = 'write' in plan ? plan.write.toString('utf8') : text;
  return Buffer.from(scrub(made), 'utf8');
}
