/**
 * What the form's template makes, expanded in the page with the shared expander for instant
 * feedback (main expands again for the run), and so how many tasks Generate would send: the
 * form's count for each prompt of the expansion. The template panel's preview, the count field's
 * note and Generate's label read the same expansion, so none of them can say another number.
 */
import { useMemo } from 'react';
import { countPrompts, expandTemplate } from '../../../shared/domain/template-expand';
import {
  parseTemplate,
  templateVariables,
  type TemplateVariable,
} from '../../../shared/domain/template-language';
import { errorText } from '../../i18n';
import { checkCount } from '../../lib/request-validation';
import { useAppStore } from '../../store/app-store';
import { RANDOM_PROMPTS } from '../../store/compose-template-actions';
import type { ComposeTemplateChoice } from '../../store/templates-slice';

export type TemplatePreview =
  | { readonly kind: 'prompts'; readonly prompts: readonly string[] }
  | { readonly kind: 'tooMany'; readonly count: string }
  | { readonly kind: 'error'; readonly text: string };

export interface TemplateExpansion {
  readonly variables: readonly TemplateVariable[];
  readonly preview: TemplatePreview;
}

function errorPreview(sentence: Parameters<typeof errorText>[0]['sentence']): TemplatePreview {
  return { kind: 'error', text: errorText({ message: '', sentence }) };
}

/** The form's template expanded, or `null` while no template (that the library has) is chosen. */
export function useTemplateExpansion(): TemplateExpansion | null {
  const choice = useAppStore((state) => state.composeTemplate);
  const body = useAppStore(
    (state) => state.templates.find((one) => one.id === state.composeTemplate?.id)?.body,
  );
  const prompt = useAppStore((state) => state.composeDraft.prompt);
  const lists = useAppStore((state) => state.templateWordLists);
  return useMemo(() => {
    if (choice === null || body === undefined) return null;
    return expansionOf(body, choice, prompt, lists);
  }, [body, choice, prompt, lists]);
}

function expansionOf(
  body: string,
  choice: ComposeTemplateChoice,
  prompt: string,
  lists: readonly { readonly name: string; readonly words: readonly string[] }[],
): TemplateExpansion {
  const parsed = parseTemplate(body);
  if (!parsed.ok) return { variables: [], preview: errorPreview(parsed.error.sentence) };
  const variables = templateVariables(parsed.template);
  const map = new Map(lists.map((list) => [list.name, list.words]));
  const context = { values: choice.values, prompt, lists: map };
  const mode =
    choice.mode === 'random'
      ? { kind: 'random' as const, count: choice.randomCount, seed: choice.seed }
      : { kind: 'combinatorial' as const };
  const counted = countPrompts(parsed.template, map);
  if (counted.ok && mode.kind === 'combinatorial' && counted.count > BigInt(RANDOM_PROMPTS)) {
    return { variables, preview: { kind: 'tooMany', count: counted.count.toString() } };
  }
  const expanded = expandTemplate(parsed.template, context, mode);
  if (!expanded.ok) return { variables, preview: errorPreview(expanded.error.sentence) };
  return { variables, preview: { kind: 'prompts', prompts: expanded.prompts } };
}

/** What Generate would send: the form's count, times the prompts a chosen template makes. */
export interface ComposeTaskCount {
  /** Tasks for each prompt (the count field's valid value), `null` while the field is wrong. */
  readonly perPrompt: number | null;
  /** Prompts the chosen template makes, `null` without a template or while it cannot expand. */
  readonly prompts: number | null;
  /** Every task the submit would send, `null` when either figure is unknown. */
  readonly tasks: number | null;
}

export function useComposeTaskCount(): ComposeTaskCount {
  const typed = useAppStore((state) => state.composeDraft.count);
  const expansion = useTemplateExpansion();
  const checked = checkCount(typed);
  const perPrompt = checked.ok ? checked.value : null;
  if (expansion === null) return { perPrompt, prompts: null, tasks: perPrompt };
  const prompts = expansion.preview.kind === 'prompts' ? expansion.preview.prompts.length : null;
  return {
    perPrompt,
    prompts,
    tasks: perPrompt === null || prompts === null ? null : perPrompt * prompts,
  };
}
