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
 * one is taken, the other refused.
 */
import { opendir } from 'node:fs/promises';
import type { Dir } from 'node:fs';
import { join } from 'node:path';
import { errorCode, openRegularFile, TEMP_DIR } from '../../fs';
import { THUMBS_DIR } from '../../gallery';
import type { ArchiveLimits } from './archive-limits';
import { sentence } from '../../../../shared/i18n/sentence';
import { ArchiveRefusedError, refusal, type Refusal } from './archive-errors';
import { pathRefusal, pathRuleSentence } from './entry-path';
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
   * Each file taken whose disk spelling is not NFC, by its NFC path: where it is in `files`, and
   * that spelling. Pictor's own names are ASCII, always NFC: for its galleries this stays empty.
   */
  readonly respelled: Map<string, { readonly index: number; readonly onDisk: string }>;
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
  if (onDisk !== path) {
    if (state.respelled.has(path)) {
      state.refused.push(refusal(JSON.stringify(onDisk), pathRuleSentence('nfc')));
      return;
    }
    state.respelled.set(path, { index: state.files.length, onDisk });
  }
  state.files.push(folderFile(state.root, onDisk, path, state.limits));
}

/**
 * The files taken, but a file spelled otherwise than NFC where one spelled in NFC has its name
 * (one pass, only when a name was spelled otherwise): the NFC one stays, the other is refused.
 */
function withoutTwins(state: Walk): SourceFile[] {
  if (state.respelled.size === 0) return state.files;
  const dropped = new Set<number>();
  state.files.forEach((file, index) => {
    const respelled = state.respelled.get(file.path);
    if (respelled === undefined || respelled.index === index) return;
    dropped.add(respelled.index);
    state.refused.push(refusal(JSON.stringify(respelled.onDisk), pathRuleSentence('nfc')));
  });
  return state.files.filter((_, index) => !dropped.has(index));
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
