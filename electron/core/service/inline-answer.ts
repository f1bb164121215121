/**
 * The images a completed answer carries inline, taken out of it as soon as it is read: each
 * entry's `data:` URL or `b64_json` is decoded by the strict decoder (inline-image.ts) and its
 * place in `imageUrls` becomes a short `inline:<sha256>` token. From here on only the bytes
 * travel (to the spool file, core/download/inline-spool.ts): the base64 text is never stored in
 * a record, shown, sent to the window or logged, and a refused one leaves only its reason.
 */
import { MAX_IMAGES_PER_TASK } from '../../../shared/domain/limits';
import { englishText, sentence, type Sentence } from '../../../shared/i18n/sentence';
import { inlineToken, type InlineImage } from '../../../shared/service/inline-token';
import type { CanonicalTask, CompletedTask } from '../../../shared/service/wire';
import { formatBytes } from '../../../shared/text/format-bytes';
import {
  decodeBase64Image,
  decodeDataUrl,
  isDataUrl,
  type InlineReading,
  type InlineRefusal,
} from './inline-image';
import { takenPayload, type TakenPayload, type TakenPayloads } from './inline-taken';

/**
 * An image entry's inline payload: its text, not yet decoded (a short one, left in the answer's
 * text), or one the answer's reader took out and decoded as it arrived (answer-scan.ts).
 */
export type InlinePayload =
  | { readonly form: 'dataUrl' | 'base64'; readonly text: string }
  | { readonly form: 'dataUrl' | 'base64'; readonly taken: TakenPayload };

/**
 * What {@link takeInline} found: the answer without its payloads, the payloads of the images it
 * keeps by index, and every string it took out (those and the refused ones), which the search
 * for the key leaves out.
 */
export interface TakenInline {
  readonly task: CanonicalTask;
  readonly payloads: ReadonlyMap<number, InlinePayload>;
  readonly removed: ReadonlySet<string>;
}

type Entry = NonNullable<NonNullable<CanonicalTask['output']>['data']>[number];

/** `value` as an inline payload in the field `form` reads it from, or null. */
function payloadIn(
  value: unknown,
  form: 'dataUrl' | 'base64',
  taken: TakenPayloads | undefined,
): InlinePayload | null {
  const found = takenPayload(taken, value);
  if (found) return { form, taken: found };
  if (typeof value !== 'string') return null;
  if (form === 'dataUrl') return isDataUrl(value) ? { form, text: value } : null;
  return { form, text: value };
}

/**
 * The entry's inline payloads: a `data:` URL in `url` (or a payload the reader took from it), and
 * an OpenAI-style `b64_json`. The first is the entry's image; `b64_json` is only when the entry
 * has no address at all (an address is downloaded as it always was, and its payload refused).
 */
function payloadsOf(entry: Entry, taken: TakenPayloads | undefined): InlinePayload[] {
  const inUrl = payloadIn(entry.url, 'dataUrl', taken);
  const base64 = payloadIn((entry as { b64_json?: unknown }).b64_json, 'base64', taken);
  return [inUrl, base64].filter((payload) => payload !== null);
}

function textOf(payload: InlinePayload): string | null {
  return 'text' in payload ? payload.text : null;
}

/**
 * The task with every image entry's inline payloads taken out (the entry keeps no `url` or
 * `b64_json` that carried one), whatever the entry's position: the payload of each image Pictor
 * keeps (the first {@link MAX_IMAGES_PER_TASK}) is returned by index, to be decoded; any other
 * (an entry beyond them, a `b64_json` beside an address) is refused unread. Nothing is decoded
 * here: the answer read again without the key (answer-parsing.ts) strips the same entries.
 */
export function takeInline(task: CanonicalTask, taken?: TakenPayloads): TakenInline {
  const data = task.output?.data;
  const payloads = new Map<number, InlinePayload>();
  const removed = new Set<string>();
  if (!data) return { task, payloads, removed };
  const entries = data.map((entry, index) => {
    const found = payloadsOf(entry, taken);
    if (found.length === 0) return entry;
    for (const payload of found) removed.add(textOf(payload) ?? '');
    const [first] = found;
    const address = typeof entry.url === 'string' && first?.form !== 'dataUrl';
    if (index < MAX_IMAGES_PER_TASK && first && !address) payloads.set(index, first);
    const { url: _url, b64_json: _base64, ...rest } = entry as Entry & { b64_json?: unknown };
    return address ? { ...rest, url: entry.url } : rest;
  });
  removed.delete('');
  return { task: { ...task, output: { ...task.output, data: entries } }, payloads, removed };
}

/**
 * What a payload holds: decoded now (a short one), or as the reader decoded it. A taken payload
 * read in the field of the other form is refused as the strict decoder would refuse its text (a
 * data URL as bare base64 has characters outside the alphabet; bare base64 is no data URL).
 */
function readingOf(
  payload: InlinePayload,
  maxBytes: number,
): InlineReading | { ok: false; why: 'other' } {
  if ('text' in payload) {
    return payload.form === 'dataUrl'
      ? decodeDataUrl(payload.text, maxBytes)
      : decodeBase64Image(payload.text, maxBytes);
  }
  const { taken } = payload;
  if (taken.form !== payload.form) {
    return { ok: false, why: payload.form === 'base64' ? 'alphabet' : 'notBase64' };
  }
  return taken.reading ?? { ok: false, why: 'other' };
}

/** The sentence of an inline image Pictor refused. */
function refusal(why: InlineRefusal | 'other', maxBytes: number): Sentence {
  return sentence('error.service.inlineImageRefused', { why, limit: formatBytes(maxBytes) });
}

/**
 * The answer's JSON as text with the inline payloads {@link takeInline} took out emptied, for the
 * checks that look for the key in what the service said. Those checks read every character in
 * several views (as written, unescaped, decoded from base64 at each alignment): megabytes of
 * base64 took them seconds per megabyte. A payload itself is not looked at for the key, as a
 * downloaded image's bytes are not: it never becomes text Pictor shows, keeps or sends, only an
 * image file that passes the image checks. Only those strings, by value: any other text (a
 * failure's reason that starts `data:`) is still read for the key.
 */
export function textWithoutInline(json: unknown, removed: ReadonlySet<string>): string {
  return JSON.stringify(json, (_name, value: unknown) =>
    typeof value === 'string' && removed.has(value) ? '' : value,
  );
}

/**
 * `task` (normalised from {@link takeInline}'s answer) with its inline images decoded, at most
 * `maxBytes` each: a decoded one's address is its `inline:<sha256>` token and its bytes are in
 * `inlineImages`; a refused one has no address and says why. An address the service itself
 * wrote as `inline:…` is refused: only Pictor names its spool files.
 */
export function withInlineImages(
  task: CompletedTask,
  payloads: ReadonlyMap<number, InlinePayload>,
  maxBytes: number,
): CompletedTask {
  const forged = task.imageUrls.some((url) => url !== null && /^\s*inline:/i.test(url));
  if (payloads.size === 0 && !forged) return task;
  const imageUrls = [...task.imageUrls];
  const refusedImages: Record<number, string> = { ...task.refusedImages };
  const refusedImageSentences: Record<number, Sentence> = { ...task.refusedImageSentences };
  const inlineImages: Record<number, InlineImage> = {};
  const refuse = (index: number, why: InlineRefusal | 'other'): void => {
    const said = refusal(why, maxBytes);
    imageUrls[index] = null;
    refusedImages[index] = englishText(said);
    refusedImageSentences[index] = said;
  };
  imageUrls.forEach((url, index) => {
    if (url !== null && /^\s*inline:/i.test(url)) refuse(index, 'other');
  });
  for (const [index, payload] of payloads) {
    const read = readingOf(payload, maxBytes);
    if (!read.ok) {
      refuse(index, read.why);
      continue;
    }
    imageUrls[index] = inlineToken(read.image.sha256);
    inlineImages[index] = read.image;
  }
  const refused = Object.keys(refusedImages).length > 0;
  return {
    ...task,
    imageUrls,
    ...(refused ? { refusedImages, refusedImageSentences } : {}),
    ...(Object.keys(inlineImages).length > 0 ? { inlineImages } : {}),
  };
}
