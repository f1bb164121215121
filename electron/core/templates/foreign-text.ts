/**
 * Prompts of other applications' style files, to and from Pictor's template language.
 *
 * Fooocus and A1111 write `{prompt}` where the user's prompt goes; InvokeAI writes `[prompt]`
 * (`PRESET_PLACEHOLDER` in invokeai/frontend/web/src/features/stylePresets/hooks/
 * usePresetModifiedPrompts.ts). Pictor writes `{{prompt}}`, and `{ } | _ \` are its language's
 * own characters, so everything else of a foreign prompt is escaped (a backslash before each) and
 * stays literal: nothing in a file becomes a choice or a wildcard by accident.
 *
 * Where a style has no placeholder, each application puts the user's prompt before it: A1111
 * joins the two with ", " (`merge_prompts` in modules/styles.py), Fooocus adds the prompt first
 * when no style holds the placeholder (its prompt pieces are joined with ", "), InvokeAI joins
 * with a space (`buildPresetModifiedPrompt`). The body says so in Pictor's words: `{{prompt}},
 * style` or `{{prompt}} style`. A negative prompt's placeholder stands for the user's negative
 * prompt in A1111 and InvokeAI; Pictor has none, so it is the empty text there, as in those
 * applications with an empty negative prompt. Fooocus leaves a negative prompt's `{prompt}` as
 * it is: literal text.
 *
 * Export goes the other way and refuses what the target cannot say: a choice, a wildcard, an
 * escape the language does not have or another placeholder; literal text that the target would
 * read as its placeholder; a body with no `{{prompt}}` (the target would add the prompt before it).
 */

/** How an application's style text marks and places the user's prompt. */
export interface ForeignDialect {
  /** What the application's shown name is (`AUTOMATIC1111`), for sentences. */
  readonly label: string;
  readonly placeholder: string;
  /** What joins the user's prompt and a style that has no placeholder. */
  readonly joiner: string;
  /** Whether a negative prompt's placeholder is the user's (empty) negative, or literal text. */
  readonly negativePlaceholder: 'empty' | 'literal';
}

export const A1111: ForeignDialect = {
  label: 'AUTOMATIC1111',
  placeholder: '{prompt}',
  joiner: ', ',
  negativePlaceholder: 'empty',
};
export const FOOOCUS: ForeignDialect = {
  label: 'Fooocus',
  placeholder: '{prompt}',
  joiner: ', ',
  negativePlaceholder: 'literal',
};
export const INVOKEAI: ForeignDialect = {
  label: 'InvokeAI',
  placeholder: '[prompt]',
  joiner: ' ',
  negativePlaceholder: 'empty',
};

const PROMPT = '{{prompt}}';
const SPECIAL = /[{}|_\\]/g;

/** Text that reads as itself in Pictor's template language: each special character escaped. */
function escapeLiteral(text: string): string {
  return text.replace(SPECIAL, (character) => `\\${character}`);
}

/** A foreign style's prompt as a template body (see the file's comment). */
export function bodyFromForeign(text: string, dialect: ForeignDialect): string {
  if (text.includes(dialect.placeholder)) {
    return text.split(dialect.placeholder).map(escapeLiteral).join(PROMPT);
  }
  const style = text.trim();
  return style === '' ? PROMPT : `${PROMPT}${dialect.joiner}${escapeLiteral(style)}`;
}

/** A foreign style's negative prompt as a template's negative (absent when empty). */
export function negativeFromForeign(text: string, dialect: ForeignDialect): string | undefined {
  const kept =
    dialect.negativePlaceholder === 'empty' ? text.split(dialect.placeholder).join('') : text;
  return kept.trim() === '' ? undefined : escapeLiteral(kept);
}

/** A body in pieces: literal texts with one placeholder between each two; null: not literal. */
function literalPieces(body: string): string[] | null {
  const pieces: string[] = [];
  let piece = '';
  for (let at = 0; at < body.length; at += 1) {
    const character = body[at] ?? '';
    if (character === '\\') {
      const escaped = body[at + 1] ?? '';
      if (!/[{}|_\\]/.test(escaped)) return null;
      piece += escaped;
      at += 1;
    } else if (body.startsWith(PROMPT, at)) {
      pieces.push(piece);
      piece = '';
      at += PROMPT.length - 1;
    } else if (/[{}|]/.test(character) || body.startsWith('__', at)) {
      return null;
    } else {
      piece += character;
    }
  }
  pieces.push(piece);
  return pieces;
}

/** Why a template's text cannot go to the target, or its text there. */
export type ForeignText =
  | { readonly ok: true; readonly text: string }
  | { readonly ok: false; readonly why: 'feature' | 'noPrompt' };

/** A template body as the target's style prompt. */
export function bodyToForeign(body: string, dialect: ForeignDialect): ForeignText {
  const pieces = literalPieces(body);
  if (pieces === null || pieces.some((piece) => piece.includes(dialect.placeholder))) {
    return { ok: false, why: 'feature' };
  }
  if (pieces.length === 1) return { ok: false, why: 'noPrompt' };
  return { ok: true, text: pieces.join(dialect.placeholder) };
}

/** A template's negative as the target's negative prompt: plain text only. */
export function negativeToForeign(negative: string, dialect: ForeignDialect): ForeignText {
  const pieces = literalPieces(negative);
  if (pieces?.length !== 1) return { ok: false, why: 'feature' };
  const text = pieces[0] ?? '';
  if (dialect.negativePlaceholder === 'empty' && text.includes(dialect.placeholder)) {
    return { ok: false, why: 'feature' };
  }
  return { ok: true, text };
}
