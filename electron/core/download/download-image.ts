/**
 * One download attempt, start to finish: request, stream to a temp file, check, place.
 * Whatever happens, no temp file is left behind.
 */
import { mkdir } from 'node:fs/promises';
import { join } from 'node:path';
import type { FetchLike, PinnedFetch, Resolver } from '../../ports/http';
import type { Logger } from '../../ports/logger';
import { diskParams, errorCode, PRIVATE_FOLDER_MODE, removeQuietly, TEMP_DIR } from '../fs';
import { tempPath, toGalleryPath } from '../fs';
import { AttemptAbort } from './attempt-abort';
import { bodyToFile, diskFailure, syncFile } from './body-to-file';
import { sentence } from '../../../shared/i18n/sentence';
import { retry, type DownloadOutcome, type FailedOutcome } from './download-outcome';
import type { ImageEngine } from '../../ports/image-engine';
import { checkImage, placeImage } from './image-finish';
import { imageNames, type ImageProvenance, pngProvenanceChunks, provenanceStep } from '../gallery';
import { type KeyedImages, requestImage } from './image-request';
import { IMAGE_MIME, type ImageKind } from '../images';
import type { ContentCredentials } from '../../../shared/domain/content-credentials';
import { createPinnedFetch, systemResolver } from './pinned-fetch';
import { ProvenanceWriter, type WrittenBody } from './provenance-writer';
import type { AddressClassifier } from '../service';
import type {
  ContentCredentialVerifier,
  CredentialOwner,
} from '../../ports/content-credential-verifier';
import { findCredentials, noCredentials, type CredentialsContext } from './credentials-step';
import { inlineSpoolResponse } from './inline-spool';
import { type IntakeKeyScrubber, keyIntake, MAX_OUTLINE } from './key-intake';

/** Direct connections pinned to the checked address: safe whatever the caller wires. */
const directPinnedFetch = createPinnedFetch();

export interface DownloadOptions {
  readonly root: string;
  /** Not used for images (it cannot be pinned to an address): see `imageFetch`. */
  readonly fetch: FetchLike;
  /** The image transport; default: direct connections pinned to the checked address. */
  readonly imageFetch?: PinnedFetch;
  /** Default: the system resolver (hosts file, DNS). */
  readonly resolver?: Resolver;
  /** Tests only; see ImageRequest.classify. */
  readonly classify?: AddressClassifier;
  /** Decodes each image and makes its thumbnail, after the header check (core/images). */
  readonly imageEngine: ImageEngine;
  /** Verifies the C2PA Content Credentials an image carries; absent: they are found, not read. */
  readonly credentials?: ContentCredentialVerifier;
  readonly maxImageBytes: number;
  readonly maxPixels: number;
  readonly thumbnailSize: number;
  readonly downloadTimeoutMs: number;
  readonly maxRedirects: number;
  readonly logger: Logger;
  /** The time (ms since the epoch): a Retry-After date is a wait from it. */
  readonly now: () => number;
  /** Every key the process holds, for the image's own metadata (key-intake.ts); absent: none. */
  readonly keyScrubber?: IntakeKeyScrubber;
}

export interface DownloadJob {
  readonly url: string;
  /**
   * The SHA-256 of an image the service sent inline (`url` is its `inline:` token): its bytes
   * come from its spool file in `folder` instead of the network (inline-spool.ts).
   */
  readonly inline?: string;
  readonly baseUrl: string;
  /** Absolute task folder, already checked to be inside the root. */
  readonly folder: string;
  readonly index: number;
  readonly signal?: AbortSignal;
  /** Written into the image (XMP, metadata/) before it is placed; absent: saved as it came. */
  readonly provenance?: ImageProvenance;
  /** The service and task the image belongs to: its Content Credentials take turns by them. */
  readonly owner?: CredentialOwner;
  /** The service's key for its own image links, where its profile sends one there. */
  readonly keyed?: KeyedImages;
}

async function fetchToTemp(
  options: DownloadOptions,
  job: DownloadJob,
  tempImage: string,
  writer: ProvenanceWriter | null,
) {
  const abort = new AttemptAbort(options.downloadTimeoutMs, job.signal);
  try {
    // An inline image's spool stands in for the image host's answer: from its body on, the
    // bytes meet every check a downloaded image meets.
    const answer = job.inline
      ? await inlineSpoolResponse(options.root, job.folder, job.inline, options.maxImageBytes)
      : await requestImage(
          {
            fetch: options.imageFetch ?? directPinnedFetch,
            resolve: options.resolver ?? systemResolver,
            ...(options.classify ? { classify: options.classify } : {}),
            baseUrl: job.baseUrl,
            maxRedirects: options.maxRedirects,
            abort,
            now: options.now,
            ...(job.keyed ? { keyed: job.keyed } : {}),
          },
          job.url,
        );
    if (!answer.ok) return answer;
    return await bodyToFile(answer.response, tempImage, {
      maxBytes: options.maxImageBytes,
      abort,
      ...(writer ? { sink: writer } : {}),
    });
  } finally {
    abort.dispose();
  }
}

interface Temps {
  readonly image: string;
  readonly thumbnail: string;
  readonly xmp: string;
  /** The image with its provenance, written as it downloaded (provenance-writer.ts). */
  readonly edited: string;
  /** The image without the metadata that carried a held key (key-intake.ts). */
  readonly keyless: string;
}

/** The writer of a PNG's provenance as it downloads, when the job has provenance. */
function writerFor(
  options: DownloadOptions,
  job: DownloadJob,
  temps: Temps,
): ProvenanceWriter | null {
  const { provenance } = job;
  if (!provenance) return null;
  const inserted = () => pngProvenanceChunks(provenance);
  const paths = { body: temps.image, edited: temps.edited };
  // Its outline made as it is written: the key search's (key-intake.ts), read from no file.
  return new ProvenanceWriter(paths, inserted, options.maxImageBytes, MAX_OUTLINE);
}

/**
 * The temp folder, made (usually by init(); here too so a deleted one cannot stall downloads), or
 * the retry that says it cannot be.
 */
async function tempFolderRefusal(root: string): Promise<FailedOutcome | null> {
  try {
    await mkdir(join(root, TEMP_DIR), { recursive: true, mode: PRIVATE_FOLDER_MODE });
    return null;
  } catch (error) {
    return retry(sentence('error.gallery.downloadFolderNotWritable', diskParams(error)));
  }
}

/** What the Content Credentials step of `job` is given: the verifier, and whose image it is. */
function credentialsContext(options: DownloadOptions, job: DownloadJob): CredentialsContext {
  return {
    ...(options.credentials ? { verifier: options.credentials } : {}),
    logger: options.logger,
    ...(job.signal ? { signal: job.signal } : {}),
    ...(job.owner ? { owner: job.owner } : {}),
  };
}

/** Without a writer, the download's own file holds the body as it came, and nothing else. */
const AS_IT_CAME: WrittenBody = {
  asItCame: true,
  edited: null,
  sawNoCredentials: false,
  outline: null,
};

/**
 * The body on disk: in the download's temp file as it came, or (a PNG with provenance) in the
 * copy edited as it came, or both; what is there (provenance-writer.ts), and the file to check:
 * the body as it came, or the edited copy when it is the only one (the same pixels).
 */
async function download(options: DownloadOptions, job: DownloadJob, temps: Temps) {
  const writer = writerFor(options, job, temps);
  const on = (written: WrittenBody) => (written.asItCame ? temps.image : temps.edited);
  try {
    const body = await fetchToTemp(options, job, temps.image, writer);
    if (!body.ok || !writer) return { body, written: AS_IT_CAME, image: temps.image };
    try {
      const written = await writer.finish();
      return { body, written, image: on(written) };
    } catch (error) {
      const failed = { ok: false, outcome: diskFailure(error) } as const;
      return { body: failed, written: AS_IT_CAME, image: temps.image };
    }
  } finally {
    await writer?.close();
  }
}

/**
 * The file the gallery keeps: the download's own, or the copy edited as it came (`written`),
 * without a held key (key-intake.ts), synced; its length when the metadata step or the key's
 * removal wrote it; what it says of itself: its credentials' verdict (not kept when they were
 * left out with a key: the verdict was on a file no longer kept) and what was left out.
 */
async function keptFile(
  options: DownloadOptions,
  temps: Temps,
  kind: ImageKind,
  from: {
    readonly image: string;
    /** `outline`: the copy edited as it downloaded's, when made (provenance-writer.ts). */
    readonly written: {
      readonly inImage: number;
      readonly file?: string;
      readonly outline: Buffer | null;
    } | null;
    readonly verdict: Promise<ContentCredentials | undefined>;
  },
) {
  const edited = from.written?.file ?? from.image;
  // The edited copy's outline is that file's only: another file kept is read for its own.
  const outline = edited === temps.edited ? (from.written?.outline ?? null) : null;
  const keyless = await keyIntake(edited, kind, { ...options, temp: temps.keyless, outline });
  if ('state' in keyless) return keyless;
  const { file, removed } = keyless;
  const inImage = keyless.bytes ?? from.written?.inImage ?? null;
  // The metadata step's file and the keyless copy are synced; the file kept otherwise (the body
  // as it came, or the copy edited as it downloaded) is synced here.
  if (inImage === null || file === temps.edited) {
    const synced = await syncFile(file);
    if (synced) return synced;
  }
  const verdict = await from.verdict;
  const found = verdict && removed !== 'credentials' ? { contentCredentials: verdict } : {};
  return { file, inImage, found: { ...found, ...(removed ? { keyRemoved: removed } : {}) } };
}

async function attempt(options: DownloadOptions, job: DownloadJob, temps: Temps) {
  const refused = await tempFolderRefusal(options.root);
  if (refused) return refused;
  const { body, written: on, image } = await download(options, job, temps);
  if (!body.ok) return body.outcome;
  // A PNG edited as it came was read chunk by chunk already: when no chunk could hold
  // credentials, it is not read again to find none.
  const credentials = on.sawNoCredentials
    ? noCredentials()
    : await findCredentials(options.root, image, body.kind, credentialsContext(options, job));
  const checked = await checkImage(image, body.kind, {
    ...options,
    ...(job.signal ? { signal: job.signal } : {}),
  });
  if ('state' in checked) return checked;
  const written =
    job.provenance &&
    (await provenanceStep(image, body.kind, job.provenance, {
      root: options.root,
      maxBytes: options.maxImageBytes,
      logger: options.logger,
      credentials: credentials.presence,
      xmpTemp: temps.xmp,
      edited: on.edited === null ? null : { path: temps.edited, bytes: on.edited },
    }));
  const kept = await keptFile(options, temps, body.kind, {
    image,
    written: written && 'inImage' in written ? { ...written, outline: on.outline } : null,
    verdict: credentials.verdict,
  });
  if ('state' in kept) return kept;
  const { file, inImage } = kept;
  const beside = written && 'beside' in written ? written.beside : null;
  const placed = await placeImage(
    {
      folder: job.folder,
      index: job.index,
      kind: body.kind,
      tempImage: file,
      tempThumbnail: temps.thumbnail,
      tempXmp: beside,
    },
    checked.thumbnail,
  );
  if (placed) return placed;
  const names = imageNames(job.index, body.kind);
  const saved = {
    state: 'saved',
    file: toGalleryPath(options.root, join(job.folder, names.image)),
    width: checked.width,
    height: checked.height,
    bytes: inImage ?? body.bytes,
    mime: IMAGE_MIME[body.kind],
    ...(beside ? { xmpFile: toGalleryPath(options.root, join(job.folder, names.xmp)) } : {}),
    ...kept.found,
  } as const;
  // No engine here decodes (core/images): sized from its header, its thumbnail made later.
  if (!checked.thumbnail) return { ...saved, thumbnailPending: true } satisfies DownloadOutcome;
  return {
    ...saved,
    thumbnail: toGalleryPath(options.root, join(job.folder, names.thumbnail)),
  } satisfies DownloadOutcome;
}

function logOutcome(logger: Logger, job: DownloadJob, outcome: DownloadOutcome): void {
  // The host only: the full URL may carry a signed token.
  const host = job.inline ? 'inline' : URL.canParse(job.url) ? new URL(job.url).host : 'unparsable';
  const fields = { index: job.index, host, state: outcome.state };
  if (outcome.state === 'saved') logger.debug('Image saved.', { ...fields, bytes: outcome.bytes });
  else logger.warn('Image not saved.', { ...fields, error: (outcome as FailedOutcome).error });
}

/** Runs one attempt; see {@link Gallery.downloadImage}. */
export async function downloadOnce(
  options: DownloadOptions,
  job: DownloadJob,
): Promise<DownloadOutcome> {
  const temps: Temps = {
    image: tempPath(options.root, '.part'),
    thumbnail: tempPath(options.root, '.thumb.part'),
    xmp: tempPath(options.root, '.xmp.part'),
    edited: tempPath(options.root, '.png.part'),
    keyless: tempPath(options.root, '.keyless.part'),
  };
  try {
    const outcome = await attempt(options, job, temps).catch((error: unknown) => {
      // A bug or an odd platform failure: the engine still gets an outcome, the log the cause.
      options.logger.error('Image download failed unexpectedly.', {
        index: job.index,
        error: error instanceof Error ? error.name : typeof error,
        code: errorCode(error),
      });
      return retry(sentence('error.gallery.downloadUnexpected'));
    });
    logOutcome(options.logger, job, outcome);
    return outcome;
  } finally {
    await Promise.all(Object.values(temps).map((temp) => removeQuietly(temp)));
  }
}
