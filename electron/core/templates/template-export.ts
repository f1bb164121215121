/**
 * Templates written as a file: Pictor's own JSON holds everything; a Fooocus style list or an
 * A1111 `styles.csv` holds a name, a prompt and a negative prompt, converted as foreign-text.ts
 * says. A template those cannot hold without changing what it makes (a choice, a wildcard, a body
 * with no place for the prompt) is left out and listed; one whose service settings they have no
 * place for is written with its prompts and listed too. Nothing is changed in silence.
 */
import type { PromptTemplate } from '../../../shared/domain/prompt-template';
import { sentence, type Sentence } from '../../../shared/i18n/sentence';
import { writeCsv } from './csv-rows';
import {
  A1111,
  bodyToForeign,
  FOOOCUS,
  negativeToForeign,
  type ForeignDialect,
} from './foreign-text';

/** What Pictor's own template files say they are, and the version of their schema. */
export const PICTOR_TEMPLATES_FORMAT = 'pictor-templates';
export const TEMPLATES_SCHEMA_VERSION = 1;

/** The formats Pictor writes. */
export type TemplateExportFormat = 'pictor' | 'fooocus' | 'a1111';

/** A template the file could not hold whole: left out, or written without its presets. */
export interface TemplateExportProblem {
  readonly name: string;
  readonly problem: Sentence;
  readonly leftOut: boolean;
}

/** The file's text, how many templates it holds and what it could not. */
export interface TemplateExport {
  readonly text: string;
  readonly count: number;
  readonly problems: TemplateExportProblem[];
}

/** A style as the foreign formats hold it. */
interface Style {
  readonly name: string;
  readonly prompt: string;
  readonly negative: string;
}

function toStyle(
  template: PromptTemplate,
  dialect: ForeignDialect,
): { style: Style } | { problem: TemplateExportProblem } {
  const params = { name: template.name, format: dialect.label };
  const prompt = bodyToForeign(template.body, dialect);
  const negative = negativeToForeign(template.negative ?? '', dialect);
  if (!prompt.ok || !negative.ok) {
    const key = !prompt.ok && prompt.why === 'noPrompt' ? 'exportNoPrompt' : 'exportFeature';
    const problem = sentence(`error.templateFile.${key}`, params);
    return { problem: { name: template.name, problem, leftOut: true } };
  }
  return { style: { name: template.name, prompt: prompt.text, negative: negative.text } };
}

function toStyles(
  templates: readonly PromptTemplate[],
  dialect: ForeignDialect,
): { styles: Style[]; problems: TemplateExportProblem[] } {
  const styles: Style[] = [];
  const problems: TemplateExportProblem[] = [];
  for (const template of templates) {
    const made = toStyle(template, dialect);
    if ('problem' in made) {
      problems.push(made.problem);
      continue;
    }
    styles.push(made.style);
    if (template.presets && Object.keys(template.presets).length > 0) {
      const params = { name: template.name, format: dialect.label };
      const problem = sentence('error.templateFile.exportPresetsLost', params);
      problems.push({ name: template.name, problem, leftOut: false });
    }
  }
  return { styles, problems };
}

/** Pictor's own template file as an object (its JSON is the file). */
export function pictorTemplateFile(templates: readonly PromptTemplate[]) {
  return { format: PICTOR_TEMPLATES_FORMAT, schemaVersion: TEMPLATES_SCHEMA_VERSION, templates };
}

/** `templates` as a file in `format`. */
export function exportTemplates(
  templates: readonly PromptTemplate[],
  format: TemplateExportFormat,
): TemplateExport {
  return WRITERS[format](templates);
}

/** How each format's file is written. */
const WRITERS: Readonly<
  Record<TemplateExportFormat, (templates: readonly PromptTemplate[]) => TemplateExport>
> = {
  pictor: (templates) => {
    const file = pictorTemplateFile(templates);
    return { text: `${JSON.stringify(file, null, 2)}\n`, count: templates.length, problems: [] };
  },
  fooocus: (templates) => {
    const { styles, problems } = toStyles(templates, FOOOCUS);
    const list = styles.map((style) => ({
      name: style.name,
      prompt: style.prompt,
      negative_prompt: style.negative,
    }));
    return { text: `${JSON.stringify(list, null, 4)}\n`, count: styles.length, problems };
  },
  a1111: (templates) => {
    const { styles, problems } = toStyles(templates, A1111);
    const rows = styles.map((style) => [style.name, style.prompt, style.negative]);
    const text = writeCsv([['name', 'prompt', 'negative_prompt'], ...rows]);
    return { text, count: styles.length, problems };
  },
};
