/**
 * The errors of the prompt-template language (shared/domain/template-language.ts): a code, where
 * in the body it points, the values its sentence names, and the sentence itself
 * (`error.template.*`, shared/i18n/errors/templates.ts), so the window and the CLI say the same.
 *
 * `offset` is a UTF-16 index into the body (what a text field's selection uses); `line` and
 * `column` count from 1, the column in characters (code points), as the user counts them. An
 * error about the whole template or one of its prompts (a count, a result) points at the start.
 */
import { sentence, type Sentence } from '../i18n/sentence';

export type TemplateErrorCode =
  | 'unclosedChoice'
  | 'unmatchedClose'
  | 'unclosedVariable'
  | 'badVariableName'
  | 'badListName'
  | 'unknownList'
  | 'emptyList'
  | 'missingValue'
  | 'emptyResult'
  | 'resultTooLong'
  | 'bodyTooLong'
  | 'tooManyPrompts'
  | 'badCount'
  | 'tooDeep'
  | 'tooComplex';

/** What an error names besides its position: a name, a count (a bigint as text), a limit. */
export interface TemplateErrorValues {
  readonly name?: string;
  readonly count?: string;
  readonly limit?: number;
  readonly number?: number;
}

export interface TemplateError extends TemplateErrorValues {
  readonly code: TemplateErrorCode;
  readonly offset: number;
  readonly line: number;
  readonly column: number;
  readonly sentence: Sentence;
}

/** A name as a sentence shows it: at most 64 characters, then an ellipsis. */
function shown(name: string): string {
  const characters = [...name];
  return characters.length > 64 ? `${characters.slice(0, 64).join('')}…` : name;
}

/** Line and column (from 1, the column in code points) of a UTF-16 `offset` in `body`. */
function positionOf(body: string, offset: number): { line: number; column: number } {
  let line = 1;
  let start = 0;
  for (let at = body.indexOf('\n'); at !== -1 && at < offset; at = body.indexOf('\n', at + 1)) {
    line += 1;
    start = at + 1;
  }
  return { line, column: [...body.slice(start, offset)].length + 1 };
}

/** The error `code` at `offset` of `body`, with its sentence. */
export function templateError(
  code: TemplateErrorCode,
  body: string,
  offset: number,
  values: TemplateErrorValues = {},
): TemplateError {
  const { line, column } = positionOf(body, offset);
  const named = values.name === undefined ? values : { ...values, name: shown(values.name) };
  const params = { ...named, line, column };
  return {
    code,
    offset,
    line,
    column,
    ...named,
    sentence: sentence(`error.template.${code}`, params),
  };
}
