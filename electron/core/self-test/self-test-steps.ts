/**
 * The checks of `pictor self-test`, each on the code the app itself runs: the history store
 * (node:sqlite and its FTS5 trigram index), the image engine the host chose (a full decode and a
 * WebP thumbnail of one image per format), the XMP writer and reader, and a Content Credentials
 * verifier (one signed sample). Each throws a {@link StepFailure} that says what was wrong; the
 * runner (self-test.ts) names the step.
 */
import { mkdir, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { newTaskRecord } from '../../../shared/domain/task-record';
import type {
  ContentCredentialVerifier,
  CredentialVerdict,
} from '../../ports/content-credential-verifier';
import type { ImageEngine } from '../../ports/image-engine';
import { certificateCount } from '../content-credentials';
import { GALLERY_FILE_MODE, PRIVATE_FOLDER_MODE, TEMP_DIR } from '../fs';
import { IMAGE_EXTENSION } from '../images';
import {
  embedProvenanceInFile,
  type ImageProvenance,
  readImageProvenance,
  readWebpCanvas,
} from '../gallery';
import { HistoryStore, type HistoryStoreOptions } from '../history';
import {
  SELF_TEST_C2PA_ANCHOR,
  SELF_TEST_C2PA_VERDICT,
  selfTestC2paSample,
} from './self-test-c2pa';
import { selfTestImages, type SelfTestImage } from './self-test-images';

/** A check found something wrong; the message says what, for the report. */
class StepFailure extends Error {
  override readonly name = 'StepFailure';
}

const PROMPT = 'Pictor self-test: a lighthouse at dusk';
/** Found only through the trigram index: three letters from the middle of a word. */
const TRIGRAM_SEARCH = 'ghthou';
/** Smaller than every embedded image, so a thumbnail must be made, not copied. */
const SELF_TEST_THUMBNAIL_SIZE = 16;
/** More than a 16-pixel WebP needs by far. */
const MAX_THUMBNAIL_BYTES = 64 * 1024;

/**
 * Opens a history in `dir`, writes one task and finds it again by a word inside its prompt (the
 * FTS5 trigram index), and by nothing that is not in it.
 */
export function historyStep(dir: string, options: Pick<HistoryStoreOptions, 'database'>): void {
  const store = HistoryStore.open(join(dir, 'history.sqlite'), options);
  try {
    const record = newTaskRecord(
      {
        localId: 'self-test-1',
        taskId: null,
        origin: 'submitted',
        endpoint: 'demo:',
        account: 'self-test',
        request: { prompt: PROMPT },
      },
      Date.now(),
    );
    store.put(record);
    const found = store.list({ search: TRIGRAM_SEARCH }).items.map((item) => item.localId);
    if (found.join() !== record.localId)
      throw new StepFailure(`the trigram search found ${found.length} tasks, not the one written`);
    if (store.count({ search: 'qqqzzz' }) !== 0)
      throw new StepFailure('a search for a word in no prompt found a task');
  } finally {
    store.close();
  }
}

async function checkThumbnail(image: SelfTestImage, webp: Uint8Array): Promise<void> {
  const what = image.header.format.toUpperCase();
  if (webp.byteLength === 0 || webp.byteLength > MAX_THUMBNAIL_BYTES)
    throw new StepFailure(`the ${what} thumbnail is ${webp.byteLength} bytes`);
  let size: { width: number; height: number };
  try {
    size = await readWebpCanvas(webp);
  } catch (error) {
    throw new StepFailure(
      `the ${what} thumbnail is not a WebP image (${error instanceof Error ? error.message : String(error)})`,
    );
  }
  if (Math.max(size.width, size.height) > SELF_TEST_THUMBNAIL_SIZE)
    throw new StepFailure(
      `the ${what} thumbnail is ${size.width}x${size.height}, larger than ${SELF_TEST_THUMBNAIL_SIZE} pixels`,
    );
}

/** Decodes the embedded `image` with `engine` and checks the thumbnail it makes. */
export async function imageStep(
  dir: string,
  engine: ImageEngine,
  image: SelfTestImage,
  signal: AbortSignal,
): Promise<void> {
  const { format, orientedWidth, orientedHeight } = image.header;
  const file = join(dir, `image.${IMAGE_EXTENSION[format]}`);
  await writeFile(file, image.bytes, { mode: GALLERY_FILE_MODE });
  const answer = await engine.thumbnail({
    file,
    header: image.header,
    thumbnailSize: SELF_TEST_THUMBNAIL_SIZE,
    signal,
  });
  const what = format.toUpperCase();
  if (answer.kind === 'pending')
    throw new StepFailure(`the ${engine.name} image engine made no ${what} thumbnail`);
  if (answer.kind === 'undecodable')
    throw new StepFailure(`the ${engine.name} image engine could not decode the ${what} image`);
  if (answer.width !== orientedWidth || answer.height !== orientedHeight)
    throw new StepFailure(
      `the ${what} image decoded as ${answer.width}x${answer.height}, not ${orientedWidth}x${orientedHeight}`,
    );
  await checkThumbnail(image, answer.webp);
}

function sameVerdict(a: CredentialVerdict, b: CredentialVerdict): boolean {
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  return [...keys].every(
    (key) => (a as Record<string, unknown>)[key] === (b as Record<string, unknown>)[key],
  );
}

/**
 * Verifies the embedded signed sample with the verifier `make` builds for its test CA, then ends
 * that verifier: it must answer valid, trusted, AI-generated, by the sample's signer.
 */
export async function c2paStep(
  make: (trustAnchors: string) => ContentCredentialVerifier,
  signal: AbortSignal,
): Promise<void> {
  const verifier = make(SELF_TEST_C2PA_ANCHOR);
  try {
    const verdict = await verifier.verify({ bytes: selfTestC2paSample(), format: 'webp', signal });
    if (!sameVerdict(verdict, SELF_TEST_C2PA_VERDICT))
      throw new StepFailure(
        `the signed sample read as ${JSON.stringify(verdict)}, not ${JSON.stringify(SELF_TEST_C2PA_VERDICT)}`,
      );
  } finally {
    await verifier.dispose();
  }
}

/** Writes Pictor's XMP into each embedded image's file and reads it back. */
export async function xmpStep(dir: string, appVersion: string): Promise<void> {
  await mkdir(join(dir, TEMP_DIR), { recursive: true, mode: PRIVATE_FOLDER_MODE });
  for (const [index, image] of selfTestImages().entries()) {
    const kind = image.header.format;
    const file = join(dir, `xmp-${index}.${IMAGE_EXTENSION[kind]}`);
    await writeFile(file, image.bytes, { mode: GALLERY_FILE_MODE });
    const provenance: ImageProvenance = {
      prompt: PROMPT,
      localId: 'self-test-1',
      imageIndex: index,
      service: 'demo:',
      createdAt: Date.UTC(2026, 0, 1),
      appVersion,
    };
    const written = await embedProvenanceInFile(file, kind, provenance, {
      root: dir,
      maxBytes: 1024 * 1024,
    });
    if (!written.ok) throw new StepFailure(`${kind.toUpperCase()}: ${written.reason}`);
    const read = await readImageProvenance(await readFile(file), kind);
    if (!read.ok) throw new StepFailure(`${kind.toUpperCase()}: ${read.reason}`);
    const { truncated: _truncated, ...back } = read.provenance;
    const same =
      Object.keys(back).length === Object.keys(provenance).length &&
      Object.entries(provenance).every(([key, value]) => back[key as keyof typeof back] === value);
    if (!same)
      throw new StepFailure(
        `${kind.toUpperCase()}: the XMP read back differs from what was written`,
      );
  }
}

/** The trust list the build ships must be there and hold certificates. */
export function credentialsStep(trustAnchors: string): void {
  if (certificateCount(trustAnchors) === 0)
    throw new StepFailure('the Content Credentials trust list is missing or holds no certificate');
}
