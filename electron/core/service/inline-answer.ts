/**
 * The images a completed answer carries inline, taken out of it as soon as it is read: each
 * entry's `data:` URL or `b64_json` is decoded by the strict decoder (inline-image.ts) and its
 * place in `imageUrls` becomes a short `inline:<sha256>` token. From here on only the bytes
 * travel (to the spool file, core/gallery/inline-spool.ts): the base64 text is never stored in
 * a record, shown, sent to the window or logged, and a refused one leaves only its reason.
 */
import { MAX_IMAGES_PER_TASK } from '../../../shared/domain/limits';
import { englishText, sentence, type Sentence } from '../../../shared/i18n/sentence';
import { inlineToken, type InlineImage } from '../../../shared/service/inline-token';
import type { CanonicalTask, CompletedTask } from '../../../shared/service/wire';
import { formatBytes } from '../gallery/download-outcome';
import { decodeBase64Image, decodeDataUrl, isDataUrl, type InlineRefusal } from './inline-image';

/** An image entry's inline payload, not yet decoded. */
export interface InlinePayload {
  readonly form: 'dataUrl' | 'base64';
  readonly text: string;
}

/** What {@link takeInline} found: the answer without its payloads, and the payloads by index. */
export interface TakenInline {
  readonly task: CanonicalTask;
  readonly payloads: ReadonlyMap<number, InlinePayload>;
}

type Entry = NonNullable<NonNullable<CanonicalTask['output']>['data']>[number];

/**
 * The entry's inline payload: a `data:` URL in `url`, else (no address at all) an OpenAI-style
 * `b64_json`. An entry with a real address keeps it (it is downloaded as it always was).
 */
function payloadOf(entry: Entry): InlinePayload | null {
  const url = typeof entry.url === 'string' ? entry.url : '';
  if (isDataUrl(url)) return { form: 'dataUrl', text: url };
  const base64 = (entry as { b64_json?: unknown }).b64_json;
  if (url.trim() === '' && typeof base64 === 'string') return { form: 'base64', text: base64 };
  return null;
}

/**
 * The task with every kept image entry that carries its image inline emptied (it no longer has
 * a `url` or `b64_json`), and those payloads by index. Nothing is decoded here: the answer read
 * again without the key (answer-parsing.ts) strips the same entries at no cost.
 */
export function takeInline(task: CanonicalTask): TakenInline {
  const data = task.output?.data;
  const payloads = new Map<number, InlinePayload>();
  if (!data) return { task, payloads };
  const entries = data.map((entry, index) => {
    if (index >= MAX_IMAGES_PER_TASK) return entry;
    const payload = payloadOf(entry);
    if (payload === null) return entry;
    payloads.set(index, payload);
    return {};
  });
  if (payloads.size === 0) return { task, payloads };
  return { task: { ...task, output: { ...task.output, data: entries } }, payloads };
}

/** The sentence of an inline image Pictor refused. */
function refusal(why: InlineRefusal | 'other', maxBytes: number): Sentence {
  return sentence('error.service.inlineImageRefused', { why, limit: formatBytes(maxBytes) });
}

/**
 * The answer's JSON as text with the inline payloads {@link takeInline} took emptied, for the
 * checks that look for the key in what the service said. Those checks read every character in
 * several views (as written, unescaped, decoded from base64 at each alignment): megabytes of
 * base64 took them seconds per megabyte, on the main process. A payload itself is not looked at
 * for the key, as a downloaded image's bytes are not: it never becomes text Pictor shows, keeps
 * or sends, only an image file that passes the image checks. Only those strings, by value: any
 * other text (a failure's reason that starts `data:`) is still read for the key.
 */
export function textWithoutInline(
  json: unknown,
  payloads: ReadonlyMap<number, InlinePayload>,
): string {
  const taken = new Set([...payloads.values()].map((payload) => payload.text));
  return JSON.stringify(json, (_name, value: unknown) =>
    typeof value === 'string' && taken.has(value) ? '' : value,
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
    const read =
      payload.form === 'dataUrl'
        ? decodeDataUrl(payload.text, maxBytes)
        : decodeBase64Image(payload.text, maxBytes);
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
