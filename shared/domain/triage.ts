/**
 * Triage: what the user decides about each image. A rating of 1–5 stars (0, unrated, is kept as
 * no rating), a flag (pick or reject; none is kept as no flag), tags and boards. The pick flag is
 * the favourite of earlier versions (shared/domain/favourites.ts keeps the two as one).
 *
 * Tags and board names are the user's words, read back from sidecars and archives anyone could
 * have written, so each is checked here, once, for every front (the window, the CLI, import):
 * after trimming and NFC normalisation a tag is 1–64 characters and a board name 1–100, neither
 * holds a control, line-separator or bidirectional-formatting character (which could make a name
 * read as another) nor a character that draws nothing where it stands (`keep\u200b`, `keep\u3164`
 * show as `keep`; the joiners, selectors and tag characters emoji, flags, Mongolian and the
 * joining scripts need stay: shared/text/control-characters.ts `invisibleInWords`), and a board
 * name holds no `/`, which separates a board from its parent in a board's path (`Clients/Acme`).
 * Two tags, or two sibling boards, are the same when their folded forms ({@link foldName}) are:
 * `Cat`, `cat`, `CAT` and `cat\u200b` are one tag. What is already stored (records, sidecars,
 * a library's rows) is read as it is, a name that draws nothing extra included: its key is its
 * plain spelling's, so it is merged with it where lists are de-duplicated, never dropped.
 */
import { z } from 'zod';
import { lazySchema } from './lazy-schema';
import { dateMsSchema } from './limits';
import type { Sentence } from '../i18n/sentence';
import { sentence } from '../i18n/sentence';
import {
  anyOf,
  BIDI_CONTROLS,
  CONTROL_CHARACTERS,
  invisibleInWords,
  LINE_SEPARATORS,
} from '../text/control-characters';

/** Stars: 1–5; 0 means unrated (the record then has no `rating`). */
export const MAX_RATING = 5;
export const TRIAGE_FLAGS = ['pick', 'reject'] as const;
/** The flag as the user sets it; `none` is the record without one. */
export type TriageFlag = (typeof TRIAGE_FLAGS)[number] | 'none';

const MAX_TAG_CHARS = 64;
export const MAX_TAGS_PER_IMAGE = 64;
export const MAX_TAGS_PER_LIBRARY = 10_000;
const MAX_BOARD_NAME_CHARS = 100;
/** A board and its parents: `A/B/C/D/E` is as deep as boards go. */
export const MAX_BOARD_DEPTH = 5;
export const MAX_BOARDS = 10_000;
/** The boards one image may be in. */
export const MAX_BOARDS_PER_IMAGE = 256;
/** What a record may hold before its tags are cleaned: more is damage, refused outright. */
export const MAX_RAW_TAGS = 1_000;
/** The longest tag or board path a record may hold before it is cleaned. */
export const MAX_RAW_TAG_CHARS = 1_000;

/**
 * Characters no tag or board name may hold: C0 and C1 controls, the line and paragraph
 * separators, the bidirectional formatting marks, embeddings, overrides and isolates, and the
 * byte-order mark (shared/text/control-characters.ts); and, in a name given (not one read back:
 * {@link cleanTags}), a character that draws nothing where it stands (`invisibleInWords`), which is
 * also folded out of a key.
 */
const FORBIDDEN = anyOf([CONTROL_CHARACTERS, LINE_SEPARATORS, BIDI_CONTROLS, '\\ufeff'], 'u');

/** A name checked: its stored form and its folded form, or the sentence saying what is wrong. */
export type NameCheck =
  | { readonly ok: true; readonly name: string; readonly key: string }
  | { readonly ok: false; readonly problem: Sentence };

/**
 * Case-insensitive identity of a tag or board name: NFC, without what draws nothing (a stored
 * `keep\u200b` is `keep`), upper then lower (ß is ss).
 */
export function foldName(name: string): string {
  const nfc = name.normalize('NFC');
  const shown = invisibleInWords().test(nfc) ? nfc.replace(invisibleInWords('gu'), '') : nfc;
  return shown.toUpperCase().toLowerCase().normalize('NFC');
}

/** Characters as the user counts them (code points, not UTF-16 units). */
function characters(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/**
 * The first forbidden character (or unshown one, when `given`), as `U+XXXX`, or null: the rule of
 * a user's word, for tags, boards and templates' names (prompt-template.ts).
 */
export function forbiddenCharacter(text: string, given: boolean): string | null {
  const found =
    FORBIDDEN.exec(text)?.[0] ?? (given ? invisibleInWords().exec(text)?.[0] : undefined);
  if (found === undefined) return null;
  const code = found.codePointAt(0) ?? 0;
  return `U+${code.toString(16).toUpperCase().padStart(4, '0')}`;
}

/** `given`: a name entered now (refused when it holds what draws nothing), not one read back. */
function checkName(raw: string, max: number, kind: 'tag' | 'board', given = true): NameCheck {
  const name = raw.normalize('NFC').trim();
  const length = characters(name);
  if (length === 0) return { ok: false, problem: sentence(`error.triage.${kind}Empty`) };
  if (length > max) {
    return { ok: false, problem: sentence(`error.triage.${kind}TooLong`, { max }) };
  }
  const character = forbiddenCharacter(name, given);
  if (character !== null) {
    return { ok: false, problem: sentence(`error.triage.${kind}Character`, { character }) };
  }
  return { ok: true, name, key: foldName(name) };
}

/**
 * A tag as the user typed it, checked (see the file's comment); `given: false` for one read back
 * from what is stored or naming one (a smart board's rule), where what draws nothing is kept.
 */
export function checkTag(raw: string, given = true): NameCheck {
  return checkName(raw, MAX_TAG_CHARS, 'tag', given);
}

/** One board's name (not a path), checked; `given` as in {@link checkName}. */
export function checkBoardName(raw: string, given = true): NameCheck {
  const checked = checkName(raw, MAX_BOARD_NAME_CHARS, 'board', given);
  if (checked.ok && checked.name.includes('/')) {
    return { ok: false, problem: sentence('error.triage.boardSlash') };
  }
  return checked;
}

/**
 * A smart board's name (shared/domain/smart-board.ts), checked as a board's name: smart boards
 * are not nested, so a `/` is just a character in it.
 */
export function checkSmartBoardName(raw: string): NameCheck {
  return checkName(raw, MAX_BOARD_NAME_CHARS, 'board');
}

/** A board's path checked: its names, its stored form (`A/B`) and its folded key. */
export type PathCheck =
  | { readonly ok: true; readonly names: string[]; readonly path: string; readonly key: string }
  | { readonly ok: false; readonly problem: Sentence };

/**
 * A board's path (`Clients/Acme`): 1–5 names, each checked; `given: false` for a path read back
 * from what is stored (see {@link checkName}).
 */
export function checkBoardPath(raw: string, given = true): PathCheck {
  const parts = raw.split('/');
  if (parts.length > MAX_BOARD_DEPTH) {
    return { ok: false, problem: sentence('error.triage.boardTooDeep', { max: MAX_BOARD_DEPTH }) };
  }
  const names: string[] = [];
  for (const part of parts) {
    const checked = checkBoardName(part, given);
    if (!checked.ok) return checked;
    names.push(checked.name);
  }
  const path = names.join('/');
  return { ok: true, names, path, key: boardKey(path) };
}

/** The folded key of a checked path: what makes two paths the same board. */
export function boardKey(path: string): string {
  return path.split('/').map(foldName).join('/');
}

/**
 * A board's path as a request or a record carries it before it is checked, in UTF-16 units: five
 * names of 100 characters (each at most two units) and the slashes between them.
 */
export const MAX_BOARD_PATH_UNITS = MAX_BOARD_DEPTH * (2 * MAX_BOARD_NAME_CHARS + 1) - 1;

/** A board's path as {@link checkBoardPath} stores it (a record's other value fails). */
export const storedBoardPathSchema = lazySchema(() =>
  z
    .string()
    .max(MAX_BOARD_PATH_UNITS)
    .refine((path) => {
      const checked = checkBoardPath(path, false);
      return checked.ok && checked.path === path;
    }),
);

/** The parent's path of a board's path, or null for a board at the top. */
export function parentPath(path: string): string | null {
  const cut = path.lastIndexOf('/');
  return cut < 0 ? null : path.slice(0, cut);
}

/**
 * Where `path` (the board `from` or one inside it, by key) is once `from` moved to `to`: `to` and
 * the names below `from`'s, counted in names, not characters. A path inside may spell `from`
 * otherwise (`STRASSE/Acme` inside `Straße`, `Clients\u200b/Acme` inside `Clients`: a record, a
 * sidecar, a library keyed again by v22), so `from`'s length is not where its names end.
 */
export function movedBoardPath(path: string, from: string, to: string): string {
  return [to, ...path.split('/').slice(from.split('/').length)].join('/');
}

/** What the check of one entry says: refused, or its key and its `Field`. */
type EntryCheck<Field extends string> =
  | { readonly ok: false }
  | ({ readonly ok: true; readonly key: string } & Readonly<Record<Field, string>>);

/**
 * A list read from a record anyone could have written: each entry checked, repeats (by key)
 * dropped, at most `max` kept in their order, each as its check's `field` writes it; `dropped`
 * counts the rest.
 */
function cleanList<Field extends string>(
  raw: readonly string[],
  check: (entry: string) => EntryCheck<Field>,
  field: Field,
  max: number,
): { kept: string[]; dropped: number } {
  const seen = new Set<string>();
  const kept: string[] = [];
  for (const candidate of raw) {
    const checked = check(candidate);
    if (!checked.ok || seen.has(checked.key) || kept.length >= max) continue;
    seen.add(checked.key);
    kept.push(checked[field]);
  }
  return { kept, dropped: raw.length - kept.length };
}

/** Tags read from a record (see {@link cleanList}), at most {@link MAX_TAGS_PER_IMAGE}. */
export function cleanTags(raw: readonly string[]): { tags: string[]; dropped: number } {
  const readTag = (tag: string): NameCheck => checkTag(tag, false);
  const { kept, dropped } = cleanList(raw, readTag, 'name', MAX_TAGS_PER_IMAGE);
  return { tags: kept, dropped };
}

/** Board paths read from a record (see {@link cleanList}), at most the per-image limit. */
export function cleanBoards(raw: readonly string[]): { boards: string[]; dropped: number } {
  const readPath = (path: string): PathCheck => checkBoardPath(path, false);
  const { kept, dropped } = cleanList(raw, readPath, 'path', MAX_BOARDS_PER_IMAGE);
  return { boards: kept, dropped };
}

/**
 * The record schema's triage fields (shared/domain/task-record.ts), bounded before cleaning. Built
 * on first use (lazy-schema.ts), as this module's other schema: a command that checks no triage
 * with zod builds none.
 */
export const triageFields = lazySchema(() => ({
  /** 1–5 stars; absent: unrated. A value outside is read as unrated (and logged by rebuild). */
  rating: z.number().int().min(1).max(MAX_RATING).optional().catch(undefined),
  /**
   * A reject (a pick is the image's star: favourites.ts); `pick` is read too and stored as the
   * star. Absent: none.
   */
  flag: z.enum(TRIAGE_FLAGS).optional().catch(undefined),
  /** The image's tags, as typed (checked and de-duplicated where records are stored). */
  tags: z.array(z.string().max(MAX_RAW_TAG_CHARS)).max(MAX_RAW_TAGS).optional().catch(undefined),
  /** The paths of the boards the image is in (`Clients/Acme`), checked where stored. */
  boards: z.array(z.string().max(MAX_RAW_TAG_CHARS)).max(MAX_RAW_TAGS).optional().catch(undefined),
  /**
   * When the user last changed the image's rating or flag (ms): an archive's import keeps the
   * newer of two. Absent: never changed by this version.
   */
  triagedAt: dateMsSchema().optional().catch(undefined),
}));

/** What an image carries of triage (all optional: an untriaged image has none of them). */
export interface ImageTriage {
  /** The pick, stored as the image's star (shared/domain/favourites.ts). */
  readonly favourite?: boolean;
  readonly rating?: number;
  readonly flag?: 'pick' | 'reject';
  readonly tags?: readonly string[];
  readonly boards?: readonly string[];
  readonly triagedAt?: number;
}

/** The image's rating as a number, 0 for unrated. */
export const ratingOf = (image: ImageTriage): number => image.rating ?? 0;
/** The image's flag: a star is a pick, `flag` holds a reject, neither is none. */
export function flagOf(image: ImageTriage): TriageFlag {
  if (image.flag === 'reject') return 'reject';
  return image.favourite === true || image.flag === 'pick' ? 'pick' : 'none';
}
