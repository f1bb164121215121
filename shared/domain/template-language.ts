/**
 * The prompt-template language, read the same way by the compose form's preview and by the main
 * process and the CLI, so the preview is exactly what is sent. Expansion is template-expand.ts.
 *
 * - `{{name}}` a variable the form asks for; `{{name=default}}` with a default (`{{name=}}`: an
 *   empty one). Names: letters, digits, `_`, `-`, starting with a letter or `_`, at most 64,
 *   case-sensitive; spaces around the name and the `=` are trimmed. `{{` always opens a variable:
 *   a choice that starts with a choice is written `{ {a|b} c|d}`.
 * - `{{prompt}}` is what the user typed in the prompt box, never asked for by the form (its
 *   default, if any, stands in when the box is empty).
 * - `{a|b|c}` one of its alternatives; they nest, may be empty (`{|very }red`) and hold text,
 *   variables, lists and choices. A `|` outside any choice is text.
 * - `__name__` one word of the user's list `name` (letters, digits, `-` and single `_` inside,
 *   at most 64). A `__` that does not start a well-formed list name is an error, never text.
 * - `\{ \} \_ \| \\` are the characters themselves; a backslash before anything else is itself.
 *
 * A body has at most 32,000 characters, choices nest at most 32 deep, and a body has at most
 * 20,000 parts, so a crafted body can neither exhaust the stack nor the memory.
 */
import { templateError, type TemplateError, type TemplateErrorValues } from './template-errors';

const MAX_TEMPLATE_CHARS = 32_000;
const MAX_DEPTH = 32;
const MAX_PARTS = 20_000;
const MAX_NAME_CHARS = 64;
const VARIABLE_NAME = /^[A-Za-z_][A-Za-z0-9_-]{0,63}$/;
const LIST_NAME = /^[A-Za-z0-9-]+(?:_[A-Za-z0-9-]+)*$/;
const LIST_NAME_CHARACTER = /[A-Za-z0-9_-]/;
const ESCAPABLE = new Set(['{', '}', '_', '|', '\\']);
/** The variable the caller fills with what the user typed in the prompt box. */
export const PROMPT_VARIABLE = 'prompt';

export type TemplateNode =
  | { readonly kind: 'text'; readonly text: string }
  | {
      readonly kind: 'variable';
      readonly name: string;
      readonly defaultValue?: string;
      readonly offset: number;
    }
  | { readonly kind: 'list'; readonly name: string; readonly offset: number }
  | { readonly kind: 'choice'; readonly alternatives: readonly TemplateSequence[] };
export type TemplateSequence = readonly TemplateNode[];

/** A body read: its parts, and the body itself, which errors point into. */
export interface ParsedTemplate {
  readonly body: string;
  readonly sequence: TemplateSequence;
}

export type TemplateResult<T> =
  ({ readonly ok: true } & T) | { readonly ok: false; readonly error: TemplateError };

/** Thrown inside the parser only, caught by {@link parseTemplate}. */
class Refusal {
  constructor(readonly error: TemplateError) {}
}

/** Whether `name` is a word list's name as a body writes it between `__` (at most 64 characters). */
/** Whether `name` is a variable's name as `{{name}}` writes it. */
export function isVariableName(name: string): boolean {
  return VARIABLE_NAME.test(name);
}

export function isListName(name: string): boolean {
  return name.length <= MAX_NAME_CHARS && LIST_NAME.test(name);
}

/** Code points in `text`, stopping once past `max`. */
export function exceedsCharacters(text: string, max: number): boolean {
  if (text.length <= max) return false;
  let count = 0;
  for (const _ of text) if (++count > max) return true;
  return false;
}

class Parser {
  private at = 0;
  private parts = 0;

  constructor(private readonly body: string) {}

  sequence(depth: number): TemplateNode[] {
    const nodes: TemplateNode[] = [];
    let text = '';
    const flush = () => {
      if (text !== '') nodes.push(this.counted({ kind: 'text', text }));
      text = '';
    };
    const { body } = this;
    while (this.at < body.length) {
      const char = body[this.at] as string;
      if (char === '\\') {
        const next = body[this.at + 1];
        const escaped = next !== undefined && ESCAPABLE.has(next);
        text += escaped ? next : '\\';
        this.at += escaped ? 2 : 1;
      } else if (char === '{') {
        flush();
        nodes.push(body[this.at + 1] === '{' ? this.variable() : this.choice(depth + 1));
      } else if (char === '_' && body[this.at + 1] === '_') {
        flush();
        nodes.push(this.list());
      } else if (char === '}' && depth === 0) {
        throw this.refuse('unmatchedClose', this.at);
      } else if ((char === '}' || char === '|') && depth > 0) {
        break;
      } else {
        text += char;
        this.at += 1;
      }
    }
    flush();
    return nodes;
  }

  private choice(depth: number): TemplateNode {
    const start = this.at;
    if (depth > MAX_DEPTH) throw this.refuse('tooDeep', start, { limit: MAX_DEPTH });
    this.at += 1;
    const alternatives: TemplateSequence[] = [];
    for (;;) {
      alternatives.push(this.counted(this.sequence(depth)));
      const char = this.body[this.at];
      this.at += 1;
      if (char === '}') return this.counted({ kind: 'choice', alternatives });
      if (char !== '|') throw this.refuse('unclosedChoice', start);
    }
  }

  private variable(): TemplateNode {
    const start = this.at;
    const end = closingOf(this.body, start + 2);
    if (end === -1) throw this.refuse('unclosedVariable', start);
    const inside = this.body.slice(start + 2, end);
    this.at = end + 2;
    const equals = unescapedIndex(inside, '=');
    const name = (equals === -1 ? inside : inside.slice(0, equals)).trim();
    if (!VARIABLE_NAME.test(name)) throw this.refuse('badVariableName', start, { name });
    if (equals === -1) return this.counted({ kind: 'variable', name, offset: start });
    const defaultValue = unescaped(inside.slice(equals + 1).trim());
    return this.counted({ kind: 'variable', name, defaultValue, offset: start });
  }

  private list(): TemplateNode {
    const start = this.at;
    const { body } = this;
    let end = start + 2;
    while (end < body.length && !body.startsWith('__', end)) {
      if (!LIST_NAME_CHARACTER.test(body[end] as string)) break;
      end += 1;
    }
    const name = body.slice(start + 2, end);
    const closed = body.startsWith('__', end);
    if (!closed || name.length > MAX_NAME_CHARS || !LIST_NAME.test(name)) {
      throw this.refuse('badListName', start, { name });
    }
    this.at = end + 2;
    return this.counted({ kind: 'list', name, offset: start });
  }

  private counted<T>(part: T): T {
    this.parts += 1;
    if (this.parts > MAX_PARTS) throw this.refuse('tooComplex', 0, { limit: MAX_PARTS });
    return part;
  }

  private refuse(
    code: TemplateError['code'],
    offset: number,
    values?: TemplateErrorValues,
  ): Refusal {
    return new Refusal(templateError(code, this.body, offset, values));
  }
}

/** The index of the `}}` ending a variable whose inside starts at `from`, or -1. */
function closingOf(body: string, from: number): number {
  for (let at = from; at < body.length - 1; at += 1) {
    if (body[at] === '\\') at += 1;
    else if (body[at] === '}' && body[at + 1] === '}') return at;
  }
  return -1;
}

function unescapedIndex(text: string, char: string): number {
  for (let at = 0; at < text.length; at += 1) {
    if (text[at] === '\\') at += 1;
    else if (text[at] === char) return at;
  }
  return -1;
}

/** `text` with its escapes replaced by the characters they stand for. */
function unescaped(text: string): string {
  return text.replace(/\\([{}_|\\])/g, '$1');
}

/** `body` read as a template, or the first thing wrong with it. */
export function parseTemplate(body: string): TemplateResult<{ template: ParsedTemplate }> {
  if (exceedsCharacters(body, MAX_TEMPLATE_CHARS)) {
    return {
      ok: false,
      error: templateError('bodyTooLong', body, 0, { limit: MAX_TEMPLATE_CHARS }),
    };
  }
  try {
    const sequence = new Parser(body).sequence(0);
    return { ok: true, template: { body, sequence } };
  } catch (thrown) {
    if (thrown instanceof Refusal) return { ok: false, error: thrown.error };
    throw thrown;
  }
}

/** `text` escaped so that a template reads it back as exactly this text. */
export function escapeTemplateText(text: string): string {
  return text.replace(/[\\{}|_]/g, '\\$&');
}

export interface TemplateVariable {
  readonly name: string;
  readonly defaultValue?: string;
}

function walk(sequence: TemplateSequence, visit: (node: TemplateNode) => void): void {
  for (const node of sequence) {
    visit(node);
    if (node.kind === 'choice')
      for (const alternative of node.alternatives) walk(alternative, visit);
  }
}

/**
 * The variables the form asks for, in order of first appearance, each with the first default the
 * template gives it; `prompt` is not one of them.
 */
export function templateVariables(template: ParsedTemplate): TemplateVariable[] {
  const found = new Map<string, TemplateVariable>();
  walk(template.sequence, (node) => {
    if (node.kind !== 'variable' || node.name === PROMPT_VARIABLE) return;
    const known = found.get(node.name);
    if (known?.defaultValue !== undefined) return;
    const defaultValue = node.defaultValue;
    found.set(
      node.name,
      defaultValue === undefined ? { name: node.name } : { name: node.name, defaultValue },
    );
  });
  return [...found.values()];
}

/** The names of the lists the template uses, in order of first appearance, each once. */
export function templateLists(template: ParsedTemplate): string[] {
  const names = new Set<string>();
  walk(template.sequence, (node) => {
    if (node.kind === 'list') names.add(node.name);
  });
  return [...names];
}

/** Every variable and list reference, in body order (the expansion checks them). */
export function templateReferences(
  template: ParsedTemplate,
): Extract<TemplateNode, { offset: number }>[] {
  const found: Extract<TemplateNode, { offset: number }>[] = [];
  walk(template.sequence, (node) => {
    if (node.kind === 'variable' || node.kind === 'list') found.push(node);
  });
  return found;
}
