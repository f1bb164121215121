/**
 * What the packaged smoke journey checks on disk after its one generation, so that a dead image
 * pipeline or a history that did not write cannot pass it: the image is a PNG that carries
 * Pictor's XMP with the prompt (read by Pictor's own reader, and by exiftool where it is on
 * PATH), its thumbnail is a WebP no larger than the gallery's thumbnail size, and the history
 * database holds the task as completed with its image saved. Unit-tested on real files
 * (tests/unit/e2e/smoke-checks.test.ts), each fault included.
 */
import { execFile } from 'node:child_process';
import { existsSync } from 'node:fs';
import { readFile } from 'node:fs/promises';
import path from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { promisify } from 'node:util';
import { readImageProvenance } from '../../../electron/core/gallery/metadata/read';
import { readWebpCanvas } from '../../../electron/core/gallery/metadata/webp-meta';
import { THUMBS_DIR } from '../../../electron/core/gallery/gallery-layout';
import { HISTORY_FILE } from '../../../electron/core/pictor-core';
import { filesUnder } from '../../support/files';
import { tool } from '../../support/tools';

/** The gallery's thumbnail size (core/gallery/gallery.ts). */
const THUMBNAIL_SIZE = 384;
const PNG_SIGNATURE = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);

export class SmokeCheckFailure extends Error {
  override readonly name = 'SmokeCheckFailure';
}

function fail(message: string): never {
  throw new SmokeCheckFailure(message);
}

/** The one `image-1.png` in the gallery and the thumbnail beside it. */
async function savedFiles(gallery: string): Promise<{ image: string; thumbnail: string }> {
  const files = await filesUnder(gallery, { missing: 'empty' });
  const images = files.filter((file) => path.basename(file) === 'image-1.png');
  if (images.length !== 1)
    fail(`Expected one image-1.png in ${gallery}, found ${images.length}: ${files.join(', ')}`);
  const image = images[0] ?? '';
  const thumbnail = path.join(path.dirname(image), THUMBS_DIR, 'image-1.webp');
  if (!files.includes(thumbnail)) fail(`No thumbnail beside ${image} (${thumbnail}).`);
  return { image, thumbnail };
}

async function checkImage(image: string, prompt: string): Promise<void> {
  const bytes = await readFile(image);
  if (!bytes.subarray(0, 8).equals(PNG_SIGNATURE)) fail(`${image} is not a PNG.`);
  const read = await readImageProvenance(bytes, 'png');
  if (!read.ok) fail(`${image} carries no Pictor XMP: ${read.reason}`);
  if (read.provenance.prompt !== prompt)
    fail(`${image}'s XMP names the prompt "${read.provenance.prompt}", not "${prompt}".`);
}

/** exiftool, an independent reader, where it is installed (CI installs it on Linux and macOS). */
async function checkWithExiftool(image: string, prompt: string): Promise<string> {
  const exiftool = tool('exiftool');
  if (!exiftool.path) return `exiftool not checked (${exiftool.missing})`;
  const { stdout } = await promisify(execFile)(exiftool.path, ['-j', '-XMP-dc:Description', image]);
  const [tags] = JSON.parse(stdout) as { Description?: string }[];
  if (tags?.Description !== prompt)
    fail(`exiftool reads the description "${String(tags?.Description)}", not "${prompt}".`);
  return 'exiftool reads the same prompt';
}

async function checkThumbnail(thumbnail: string): Promise<string> {
  let size: { width: number; height: number };
  try {
    size = await readWebpCanvas(await readFile(thumbnail));
  } catch (error) {
    fail(`The thumbnail ${thumbnail} is not a WebP image (${String(error)}).`);
  }
  if (Math.max(size.width, size.height) > THUMBNAIL_SIZE)
    fail(`The thumbnail is ${size.width}x${size.height}, larger than ${THUMBNAIL_SIZE}.`);
  return `${size.width}x${size.height}`;
}

/** The task's row in the history (read only: the app's file, opened after it quit). */
function checkHistory(dataDir: string, prompt: string): void {
  const file = path.join(dataDir, HISTORY_FILE);
  let db: DatabaseSync;
  try {
    db = new DatabaseSync(file, { readOnly: true });
  } catch (error) {
    fail(`The history ${file} cannot be opened: ${String(error)}`);
  }
  try {
    const rows = db
      .prepare(
        'SELECT t.status, t.prompt, i.state FROM tasks t JOIN images i ON i.local_id = t.local_id',
      )
      .all();
    const row = rows.find((candidate) => candidate['prompt'] === prompt);
    if (!row) fail(`The history holds no task with the prompt "${prompt}" (${rows.length} rows).`);
    if (row['status'] !== 'completed' || row['state'] !== 'saved')
      fail(`The history says ${String(row['status'])} / image ${String(row['state'])}.`);
  } finally {
    db.close();
  }
}

/** Every check; resolves a line for the log, or rejects with what is wrong. */
export async function checkSavedGeneration(options: {
  readonly gallery: string;
  readonly dataDir: string;
  readonly prompt: string;
}): Promise<string> {
  const { image, thumbnail } = await savedFiles(options.gallery);
  await checkImage(image, options.prompt);
  const independent = await checkWithExiftool(image, options.prompt);
  const size = await checkThumbnail(thumbnail);
  checkHistory(options.dataDir, options.prompt);
  return `the PNG carries its XMP (${independent}), its thumbnail is a ${size} WebP, the history holds the task as completed`;
}

/**
 * Linux, where the deb installed its AppArmor profile: the running app (`pid`) is confined by that
 * profile, `pictor`, which is what lets its sandbox create user namespaces on Ubuntu 24.04;
 * elsewhere nothing to check (null).
 */
export async function checkAppArmorProfile(pid: number): Promise<string | null> {
  if (process.platform !== 'linux' || !existsSync('/etc/apparmor.d/pictor')) return null;
  return appArmorVerdict(await readFile(`/proc/${pid}/attr/current`, 'utf8'));
}

/** What /proc/<pid>/attr/current says of the app: its profile `pictor`, or the check fails. */
export function appArmorVerdict(current: string): string {
  const label = current.replace(/\0/g, '').trim();
  if (!/^pictor \(/.test(label))
    fail(`The installed app runs under AppArmor label "${label}", not its profile "pictor".`);
  return `the app runs confined by its AppArmor profile (${label})`;
}
