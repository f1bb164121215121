/**
 * What one download attempt ended with, and the sentences the user reads. Messages are built
 * from fixed text, status codes and error codes only: never a URL (it may carry a signed
 * token) and never a key (the gallery does not have one).
 */
import { englishText, sentence, type Sentence } from '../../../shared/i18n/sentence';
import type { ContentCredentials } from '../../../shared/domain/content-credentials';
import type { ImageRecord } from '../../../shared/domain/task-record';

/** The outcome of {@link ImageIntake.downloadImage}. */
export type DownloadOutcome =
  | {
      state: 'saved';
      /** Root-relative path of the image. */
      file: string;
      /** Root-relative path of its WebP thumbnail; absent when {@link thumbnailPending}. */
      thumbnail?: string;
      /**
       * No engine here decodes (core/images): the image was saved sized from its header check,
       * and its thumbnail is made later by a host that can (core/images/pending-thumbnails.ts).
       */
      thumbnailPending?: true;
      /** The displayed size (EXIF orientation applied). */
      width: number;
      height: number;
      bytes: number;
      mime: 'image/png' | 'image/jpeg' | 'image/webp';
      /** Root-relative path of the image's XMP sidecar, when it has one (see ImageRecord.xmpFile). */
      xmpFile?: string;
      contentCredentials?: ContentCredentials;
      /** What was left out of its metadata because it carried a held key (key-intake.ts). */
      keyRemoved?: ImageRecord['keyRemoved'];
    }
  /** The image host says the URL is dead: 401/403/404/410. */
  | { state: 'expired'; error: string; errorSentence?: Sentence }
  /** Not an acceptable image, too big, a decompression bomb, a refused URL, or no URL. */
  | { state: 'invalid'; error: string; errorSentence?: Sentence }
  /** Network error, timeout, 5xx, 408, 429, body cut mid-way, disk trouble: try again later. */
  | { state: 'retry'; error: string; errorSentence?: Sentence; retryAfterMs?: number };

/**
 * A failed attempt: `error` is the English text (logs, the CLI), `errorSentence` the same as a
 * catalogue sentence for ImageRecord.errorSentence. Every outcome made here has one; the type
 * keeps it optional for outcomes made elsewhere from text.
 */
export type FailedOutcome = Exclude<DownloadOutcome, { state: 'saved' }>;

/** The words of a failed outcome: the sentence and its English text, always together. */
function said(errorSentence: Sentence): { error: string; errorSentence: Sentence } {
  return { error: englishText(errorSentence), errorSentence };
}

export function invalid(why: Sentence): FailedOutcome {
  return { state: 'invalid', ...said(why) };
}

export function expired(status: number): FailedOutcome {
  return {
    state: 'expired',
    ...said(sentence('error.gallery.imageExpired', { status: String(status) })),
  };
}

/**
 * A retry outcome; `why` is one of the `error.gallery.download*` sentences, which end by saying
 * Pictor will try again (see {@link lastAttempt}).
 */
export function retry(why: Sentence, retryAfterMs?: number): FailedOutcome {
  // Every value of a sentence must be given, `last` too (ICU fails on a missing one).
  const words = said(sentence(why.key, { last: 'no', ...why.params }));
  return retryAfterMs === undefined
    ? { state: 'retry', ...words }
    : { state: 'retry', ...words, retryAfterMs };
}

/**
 * The words of a retry outcome once this run's attempts are used up: the same sentence, ending
 * "Pictor will try again at the next start, or when you choose Retry." (For the engine's
 * download manager; an outcome without a sentence keeps its text.)
 */
export function lastAttempt(outcome: FailedOutcome): { error: string; errorSentence?: Sentence } {
  const current = outcome.errorSentence;
  if (!current) return { error: outcome.error };
  return said(sentence(current.key, { ...current.params, last: 'yes' }));
}
