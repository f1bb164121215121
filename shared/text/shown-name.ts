/**
 * A name that comes from a file or a service (a signer or an issuer from a certificate, a
 * generator from a manifest, a model a service reported or a record names) as Pictor keeps and
 * shows it: one line that cannot steer, hide or reorder the text around it. A certificate's
 * `O=\u202EIAnepO…` would otherwise show as a name that reads "OpenAI" and turn the rest of its
 * line around.
 *
 * Taken out: the control characters, every format character (Unicode category Cf: the bidi marks,
 * embeddings, overrides and isolates, zero-width characters, the byte order mark, tag
 * characters…), lone surrogate halves, and the line and paragraph separators. The window isolates
 * such a name besides (`<bdi>`), so a name in a right-to-left script keeps its own order inside
 * one of Pictor's sentences. Imports carry `.ts` for Node's type stripping (the Content Credentials
 * workers read this).
 */
import { z } from 'zod';
import { BIDI_CONTROLS, CONTROL_CHARACTERS, LINE_SEPARATORS, anyOf } from './control-characters.ts';

/** Every format character (the bidi controls among them) and lone surrogate halves. */
const FORMAT_CHARACTERS = '\\p{Cf}\\p{Cs}';

const NOT_IN_A_NAME = [CONTROL_CHARACTERS, BIDI_CONTROLS, LINE_SEPARATORS, FORMAT_CHARACTERS];
const STRIPPED = anyOf(NOT_IN_A_NAME, 'gu');
const FOUND = anyOf(NOT_IN_A_NAME, 'u');

/** `text` without them, trimmed; `''` when nothing is left. */
function stripped(text: string): string {
  return text.replace(STRIPPED, '').trim();
}

/**
 * `text` as a name: the characters above taken out, trimmed, cut to `maxChars` (whole characters,
 * never half a surrogate pair); `undefined` when nothing is left.
 */
export function cleanName(text: string | undefined, maxChars: number): string | undefined {
  if (text === undefined) return undefined;
  // Far past any name: only its start can be kept, so only its start is looked at.
  let clean = stripped(text.slice(0, maxChars * 4));
  if (clean.length > maxChars) {
    const kept = [...clean].slice(0, maxChars);
    while (kept.join('').length > maxChars) kept.pop();
    clean = kept.join('').trim();
  }
  return clean === '' ? undefined : clean;
}

/**
 * A name read back (a history row, a sidecar, an archive, an answer checked in main): the
 * characters above taken out and trimmed, then 1 to `maxChars` characters (a longer one is
 * refused, not cut: a cut name may name someone else). One over four times the limit is refused
 * unread.
 */
export function shownNameSchema(maxChars: number) {
  return z
    .string()
    .max(maxChars * 4)
    .transform(stripped)
    .pipe(z.string().min(1).max(maxChars));
}

/**
 * An optional name read back or typed (the model a request asks for): cleaned as
 * {@link shownNameSchema} cleans, absent when nothing is left of it, refused when too long.
 */
export function optionalNameSchema(maxChars: number) {
  return z
    .string()
    .max(maxChars * 4)
    .transform((text) => stripped(text) || undefined)
    .pipe(z.string().max(maxChars).optional());
}

/**
 * A name that must already be clean, or is not taken (what a reader of hostile bytes answers, which
 * cleaned it itself; a model a service reports, where a cleaned name may be another model's): 1 to
 * `maxChars` characters, refused when it holds any character {@link cleanName} takes out.
 */
export function cleanNameSchema(maxChars: number) {
  return z
    .string()
    .min(1)
    .max(maxChars)
    .refine((text) => !FOUND.test(text), { message: 'a control, format or separator character' });
}

/** The most of a field's path, and of a schema's words about its value, a refusal shows. */
const MAX_SHOWN_WHERE = 120;
const MAX_SHOWN_PROBLEM = 240;

/**
 * A schema's refusal of what a file anyone could write holds (a gallery sidecar, an archive's
 * manifest), as a refusal shows it: where (the field's path, `undefined` for the whole) and what
 * is wrong, each cleaned as a name ({@link cleanName}) and bounded. The path can hold the file's
 * own keys (a model option's name) and the schema's words can quote them (`Unrecognized key:
 * "…"`): a key of megabytes, or one with a bidi override or a terminal escape, would otherwise be
 * the sentence, and outgrow the list it is shown in.
 */
export function shownIssue(issue: {
  readonly path: readonly PropertyKey[];
  readonly message: string;
}): { readonly where: string | undefined; readonly problem: string } {
  const where = cleanName(issue.path.map(String).join('.'), MAX_SHOWN_WHERE);
  return { where, problem: cleanName(issue.message, MAX_SHOWN_PROBLEM) ?? '?' };
}
