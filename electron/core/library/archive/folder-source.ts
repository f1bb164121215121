/**
 * A folder to import (a Pictor gallery folder, or an export unpacked), listed with the gallery's
 * rules for crafted folders (rebuild.ts, regular-file.ts): links are never followed, only
 * regular files are listed and later opened (O_NOFOLLOW, non-blocking, size-checked on the
 * opened handle), Pictor's own folders (thumbnails, and every `.pictor-` one: files being
 * written, the trash of deleted images waiting for Undo) are left out without a word, depth and
 * count (of every entry listed, refused ones too) are bounded, and every path passes the
 * archive's path rules (entry-path.ts).
 *
 * A path is judged and named in NFC, and opened as the disk spells it: macOS gives names in NFD
 * (HFS+ always, APFS as the program that made them wrote them), so a folder the user named
 * `Café` there is not crafted. Two spellings of one NFC name (`é` and `e\u0301`, `K` and the
 * Kelvin sign) sit side by side only where a disk keeps both (Linux, a network share): the NFC
 * one is taken (else the least in code-unit order), the others refused, as a rebuild takes task
 * folders (entry-path.ts `spelledTwins`).
 */
import { opendir } from 'node:fs/promises';
import type { Dir } from 'node:fs';
import { join } from 'node:path';
import { errorCode, openRegularFile, TEMP_DIR } from '../../fs';
import { THUMBS_DIR } from '../../gallery';
import type { ArchiveLimits } from './archive-limits';
import { sentence } from '../../../../shared/i18n/sentence';
import { ArchiveRefusedError, refusal, type Refusal } from './archive-errors';
import { pathRefusal, pathRuleSentence, spelledTwins } from './entry-path';
import { keepingErrors } from './stream-copy';
import type { ImportSource, SourceFile } from './zip-source';

/** Pictor's working folders inside a gallery: never the library, never a refusal. */
const OWN_PREFIX = '.pictor-';

function isPictorOwn(name: string): boolean {
  return name === THUMBS_DIR || name === TEMP_DIR || name.startsWith(OWN_PREFIX);
}

interface Walk {
  readonly root: string;
  readonly limits: ArchiveLimits;
  readonly files: SourceFile[];
  readonly refused: Refusal[];
  /** Entries listed so far, of every kind. */
  listed: number;
  /**
   * Each file taken whose disk spelling is not NFC, by where it is in `files`: that spelling.
   * Pictor's own names are ASCII, always NFC: for its galleries this stays empty.
   */
  readonly respelled: Map<number, string>;
}

function folderFile(root: string, onDisk: string, path: string, limits: ArchiveLimits): SourceFile {
  const absolute = join(root, ...onDisk.split('/'));
  return {
    path,
    size: 0,
    // Checked again on the handle that is read: a file swapped for a link or FIFO is refused,
    // and so is one a folder swapped for a link led outside `root` (core/fs/open-inside.ts).
    open: async () => {
      const { handle } = await openRegularFile(
        root,
        absolute,
        Math.max(limits.maxManifestBytes, limits.maxImageBytes),
      );
      return keepingErrors(handle.createReadStream({ autoClose: true }));
    },
  };
}

/**
 * Counts one more entry listed (a file taken, a folder walked, anything refused): a folder of
 * millions of links or odd names is refused at the bound, not listed to its end with a refusal
 * kept for each.
 */
function counted(state: Walk): void {
  state.listed += 1;
  if (state.listed > state.limits.maxEntries) {
    throw new ArchiveRefusedError(
      sentence('error.library.folderTooManyFiles', { max: String(state.limits.maxEntries) }),
    );
  }
}

/** Takes the file the disk spells `onDisk` as `path` (its NFC form): see the file's comment. */
function take(state: Walk, onDisk: string, path: string): void {
  if (onDisk !== path) state.respelled.set(state.files.length, onDisk);
  state.files.push(folderFile(state.root, onDisk, path, state.limits));
}

/**
 * The files taken, but those left out as spellings of another's NFC name, by the rule a rebuild
 * takes its task folders by (entry-path.ts `spelledTwins`), each refused; one pass, only when a
 * name was spelled otherwise than NFC.
 */
function withoutTwins(state: Walk): SourceFile[] {
  if (state.respelled.size === 0) return state.files;
  const onDisk = state.files.map((file, index) => state.respelled.get(index) ?? file.path);
  const twins = spelledTwins(onDisk);
  for (const index of [...twins].sort((a, b) => a - b)) {
    state.refused.push(refusal(JSON.stringify(onDisk[index]), pathRuleSentence('nfc')));
  }
  return state.files.filter((_, index) => !twins.has(index));
}

async function walk(state: Walk, relative: string, depth: number): Promise<void> {
  let entries: Dir;
  try {
    // Read as it is walked: one folder of millions of entries is never held whole.
    entries = await opendir(relative ? join(state.root, relative) : state.root);
  } catch (error) {
    const code = errorCode(error);
    state.refused.push(
      refusal(
        relative || '.',
        code
          ? sentence('error.library.folderUnreadableCode', { code })
          : sentence('error.library.folderUnreadable'),
      ),
    );
    return;
  }
  for await (const entry of entries) {
    const onDisk = relative ? `${relative}/${entry.name}` : entry.name;
    if (isPictorOwn(entry.name)) continue;
    counted(state);
    const path = onDisk.normalize('NFC');
    const rule = pathRefusal(path, state.limits);
    if (rule) {
      state.refused.push(refusal(JSON.stringify(onDisk), pathRuleSentence(rule)));
    } else if (entry.isDirectory()) {
      if (depth < state.limits.maxDepth) await walk(state, onDisk, depth + 1);
      else state.refused.push(refusal(onDisk, sentence('error.library.folderTooDeep')));
    } else if (entry.isFile()) {
      take(state, onDisk, path);
    } else {
      state.refused.push(
        refusal(
          onDisk,
          sentence(
            entry.isSymbolicLink() ? 'error.library.entryIsLink' : 'error.library.entryNotRegular',
          ),
        ),
      );
    }
  }
}

/** Lists `root` for an import (see the file's comment). */
export async function openFolderSource(root: string, limits: ArchiveLimits): Promise<ImportSource> {
  const state: Walk = { root, limits, files: [], refused: [], listed: 0, respelled: new Map() };
  await walk(state, '', 0);
  const files = withoutTwins(state);
  return { kind: 'folder', files, refused: state.refused, close: async () => {} };
}
