/**
 * The rules for a path named inside an archive or found in a folder to import, the same as for a
 * gallery path (gallery-path.ts: no `..`, nothing absolute, no drive letter, no backslash, no
 * NUL) and stricter: no control or invisible characters, no look-alikes of `/`, `\` or `.`, no
 * name Windows would read differently (`CON .png`, `a:b`, a trailing dot:
 * shared/text/file-names.ts), only NFC text, bounded lengths. Names from an archive never become
 * file names in the gallery (those are Pictor's own, gallery-layout.ts); a name that breaks a
 * rule means the archive was crafted.
 */
import { isAbsolute } from 'node:path';
import { sentence, type Sentence } from '../../../../shared/i18n/sentence';
import {
  BIDI_CONTROLS,
  CONTROL_CHARACTERS,
  LINE_SEPARATORS,
  anyOf,
} from '../../../../shared/text/control-characters';
import { foldedName, hasInvisible, windowsNameRule } from '../../../../shared/text/file-names';
import { GalleryPathError, resolveInside } from '../../fs';
import type { ArchiveLimits } from './archive-limits';

/**
 * Characters that hide, reorder or imitate: controls, bidi formatting, line separators, the
 * invisible ones (soft hyphen, zero-width, word joiner and invisible operators, deprecated
 * format characters, BOM, interlinear annotation; and every other but the joiner and selector of
 * an emoji, {@link hasInvisible}) and look-alikes of `/`, `\` and `.`.
 */
const TRICKY = anyOf(
  [
    CONTROL_CHARACTERS,
    BIDI_CONTROLS,
    LINE_SEPARATORS,
    '\\u00ad\\u200b\\u200c\\u2060-\\u2064\\u206a-\\u206f\\ufeff\\ufff9-\\ufffb',
    '\\u2024\\u2025\\u2026\\u2044\\u2215\\u2216\\u29f8\\u29f9\\ufe52\\ufe68\\uff0e\\uff0f\\uff3c\\u3002',
  ],
  'u',
);
const NOWHERE = '/pictor-archive-root';

/** Which rule a path breaks: the `rule` of the `error.library.pathRefused` sentence. */
export type PathRule =
  | 'empty'
  | 'backslash'
  | 'absolute'
  | 'leaves'
  | 'long'
  | 'tricky'
  | 'nfc'
  | 'deep'
  | 'dot'
  | 'name'
  | 'reserved';

/** The gallery's rules (gallery-path.ts), in its order; its own check stays the last word. */
function galleryRule(path: string): PathRule | null {
  if (path === '' || path.includes('\0')) return 'empty';
  if (path.includes('\\')) return 'backslash';
  if (path.startsWith('/') || isAbsolute(path) || /^[a-zA-Z]:/.test(path)) return 'absolute';
  if (path.split('/').includes('..')) return 'leaves';
  try {
    resolveInside(NOWHERE, path);
  } catch (error) {
    if (error instanceof GalleryPathError) return 'leaves';
    throw error;
  }
  return null;
}

/** Which rule `path` (a file's, `/`-separated, no trailing `/`) breaks, or null. */
export function pathRefusal(path: string, limits: ArchiveLimits): PathRule | null {
  const gallery = galleryRule(path);
  if (gallery) return gallery;
  if (Buffer.byteLength(path) > limits.maxPathBytes) return 'long';
  if (TRICKY.test(path) || hasInvisible(path)) return 'tricky';
  if (path.normalize('NFC') !== path) return 'nfc';
  const segments = path.split('/');
  if (segments.length > limits.maxDepth + 1) return 'deep';
  for (const segment of segments) {
    if (segment === '' || segment === '.') return 'dot';
    if (Buffer.byteLength(segment) > limits.maxSegmentBytes) return 'name';
    if (windowsNameRule(segment)) return 'reserved';
  }
  return null;
}

/** The sentence for a path that breaks `rule`. */
export function pathRuleSentence(rule: PathRule): Sentence {
  return sentence('error.library.pathRefused', { rule });
}

/**
 * Of paths as a disk spells them, the indexes of those left out as spellings of another's NFC
 * form (`é` and `e\u0301`, `K` and the Kelvin sign, `Å` and the Ångström sign: side by side only
 * where a disk keeps both, Linux or a network share): of each such group the one spelled in NFC
 * stays, else the least in code-unit order, so which one is taken never hangs on the order a disk
 * lists them. The others are refused by the `nfc` rule. One rule for a folder import's files
 * (folder-source.ts) and a rebuild's task folders (rebuild-rules.ts).
 */
export function spelledTwins(onDisk: readonly string[]): Set<number> {
  const kept = new Map<string, number>();
  const twins = new Set<number>();
  onDisk.forEach((path, index) => {
    const named = path.normalize('NFC');
    const other = kept.get(named);
    if (other === undefined) kept.set(named, index);
    else if (spelledBefore(path, onDisk[other] ?? '', named)) {
      twins.add(other);
      kept.set(named, index);
    } else twins.add(index);
  });
  return twins;
}

/** Whether `path` is taken before `other`, both spellings of `named`: see {@link spelledTwins}. */
function spelledBefore(path: string, other: string, named: string): boolean {
  if (other === named) return false;
  return path === named || path < other;
}

/**
 * The key two names collide under: case and Unicode form folded, as on macOS and Windows file
 * systems, where `A.png` and `a.png` are one file (shared/text/file-names.ts `foldedName`).
 */
export function collisionKey(path: string): string {
  return foldedName(path);
}
