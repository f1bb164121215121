/**
 * A prompt template: a named prompt (and negative prompt) the user keeps and applies again, with
 * settings per service it may bring along. The body is text in Pictor's template language
 * (shared/domain/template-language.ts): `{{prompt}}` stands for what the user types.
 *
 * Templates are read back from the history and from files anyone could have written
 * (electron/core/templates/template-files.ts), so the record is checked here, once, for every
 * front. A name is 1–{@link MAX_TEMPLATE_NAME_CHARS} characters after NFC and trimming, with no
 * control, line-separator or bidirectional-formatting character nor, in a name given now, one that
 * draws nothing where it stands (the rule of tags and boards, shared/domain/triage.ts
 * `forbiddenCharacter`); unique among templates whatever its case and whatever draws nothing in
 * it ({@link foldName}: a name stored before this rule, `Portrait\u200b`, is read as it is and is
 * the template `Portrait`). A body
 * or negative prompt is at most {@link MAX_TEMPLATE_TEXT_CHARS} characters, counted as the user
 * counts them (code points), the longest prompt a request may carry.
 */
import { z } from 'zod';
import { sentence } from '../i18n/sentence';
import { lazySchema } from './lazy-schema';
import { dateMsSchema, REQUEST_LIMITS, TASKS_PER_SUBMIT } from './limits';
import { ownKeysSchema } from './plain-object';
import { providerIdSchema } from './providers';
import { foldName, forbiddenCharacter, type NameCheck } from './triage';

export const MAX_TEMPLATE_NAME_CHARS = 100;
/** A body or a negative prompt, in code points: the longest prompt a request carries. */
export const MAX_TEMPLATE_TEXT_CHARS = REQUEST_LIMITS.prompt;
/** A preset's size as a service spells it (`1024x1024`, `16:9`, `landscape_4_3`). */
const MAX_PRESET_SIZE_CHARS = 100;

/** Characters as the user counts them (code points, not UTF-16 units). */
export function codePoints(text: string): number {
  let count = 0;
  for (const _ of text) count += 1;
  return count;
}

/**
 * A template's name as the user typed it, checked: its stored form and its folded key; `given:
 * false` for one read back from what is stored, where what draws nothing is kept (triage.ts).
 */
export function checkTemplateName(raw: string, given = true): NameCheck {
  const name = raw.normalize('NFC').trim();
  const length = codePoints(name);
  if (length === 0) return { ok: false, problem: sentence('error.templateFile.nameEmpty') };
  if (length > MAX_TEMPLATE_NAME_CHARS) {
    const max = MAX_TEMPLATE_NAME_CHARS;
    return { ok: false, problem: sentence('error.templateFile.nameTooLong', { max }) };
  }
  const character = forbiddenCharacter(name, given);
  if (character !== null) {
    return { ok: false, problem: sentence('error.templateFile.nameCharacter', { character }) };
  }
  return { ok: true, name, key: foldName(name) };
}

/** Text of at most {@link MAX_TEMPLATE_TEXT_CHARS} code points (two UTF-16 units each at most). */
const templateText = () =>
  z
    .string()
    .max(2 * MAX_TEMPLATE_TEXT_CHARS)
    .refine((text) => codePoints(text) <= MAX_TEMPLATE_TEXT_CHARS, 'too long');

/** What a template sets for one service when it is applied; each field optional. */
const templatePresetSchema = () =>
  z.object({
    model: z.string().min(1).max(REQUEST_LIMITS.model).optional(),
    size: z.string().min(1).max(MAX_PRESET_SIZE_CHARS).optional(),
    quality: z.string().min(1).max(REQUEST_LIMITS.quality).optional(),
    count: z.number().int().min(TASKS_PER_SUBMIT.min).max(TASKS_PER_SUBMIT.max).optional(),
  });

/**
 * Presets per service: an object whose own keys are all known services. Checked on the object as
 * read, before the record schema copies it: a `__proto__` key (an own key of parsed JSON) would
 * otherwise be dropped in silence, not refused.
 */
const presetsSchema = () =>
  ownKeysSchema((key) => providerIdSchema().safeParse(key).success).pipe(
    z.partialRecord(providerIdSchema(), templatePresetSchema()),
  );

/** A name as {@link checkTemplateName} stores it, or stored before (any other value fails). */
const storedNameSchema = () =>
  z
    .string()
    .max(4 * MAX_TEMPLATE_NAME_CHARS)
    .refine((name) => {
      const checked = checkTemplateName(name, false);
      return checked.ok && checked.name === name;
    }, 'not a stored template name');

/**
 * Built on first use (lazy-schema.ts), with the parts above: a command that reads no template
 * builds none.
 */
export const promptTemplateSchema = lazySchema(() =>
  z.object({
    id: z.uuid(),
    name: storedNameSchema(),
    body: templateText(),
    negative: templateText().optional(),
    /** Per service (its provider id); a key outside the known services fails the record. */
    presets: presetsSchema().optional(),
    /** 1 when created, one more on every save. */
    version: z.number().int().min(1).max(Number.MAX_SAFE_INTEGER),
    createdAt: dateMsSchema(),
    updatedAt: dateMsSchema(),
  }),
);

export type PromptTemplate = z.infer<ReturnType<typeof promptTemplateSchema>>;
