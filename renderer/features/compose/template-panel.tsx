/**
 * The compose form with a template chosen: one field per variable (its default as placeholder),
 * the expansion mode (All combinations, or Random N with its seed and "New seed"), and a live
 * preview of every prompt, expanded here with the shared expander for instant feedback (a
 * language error with its line and column; over 100 prompts the limit's sentence and "Use random
 * 100"). Main's plan (`templates:plan`, asked once the form settles) gives the estimate, the caps'
 * warnings and whether the negative prompt is sent; Generate then runs what main expands.
 */
import { useEffect, useMemo } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { countPrompts, expandTemplate } from '../../../shared/domain/template-expand';
import { parseTemplate, templateVariables } from '../../../shared/domain/template-language';
import type { TemplatePlanOutput } from '../../../shared/ipc/template-contract';
import { Button } from '../../components/button';
import { TextField } from '../../components/text-field';
import { errorText, t } from '../../i18n';
import { formatCost } from '../../lib/cost-text';
import { useAppStore } from '../../store/app-store';
import { RANDOM_PROMPTS } from '../../store/compose-template-actions';
import type { ComposeTemplateChoice } from '../../store/templates-slice';

/** How long the form waits after a change before asking main for its plan. */
const SETTLE_MS = 300;

type Preview =
  | { readonly kind: 'prompts'; readonly prompts: readonly string[] }
  | { readonly kind: 'tooMany'; readonly count: string }
  | { readonly kind: 'error'; readonly text: string };

/** The prompts the choice gives, expanded in the page (main expands again for the run). */
function usePreview(body: string, choice: ComposeTemplateChoice, prompt: string) {
  const lists = useAppStore((state) => state.templateWordLists);
  return useMemo(() => {
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
      return {
        variables,
        preview: { kind: 'tooMany', count: counted.count.toString() } as Preview,
      };
    }
    const expanded = expandTemplate(parsed.template, context, mode);
    if (!expanded.ok) return { variables, preview: errorPreview(expanded.error.sentence) };
    return { variables, preview: { kind: 'prompts', prompts: expanded.prompts } as Preview };
  }, [body, choice, prompt, lists]);
}

function errorPreview(sentence: Parameters<typeof errorText>[0]['sentence']): Preview {
  return { kind: 'error', text: errorText({ message: '', sentence }) };
}

/** Asks main for the plan once the form has settled. */
function useAskPlan(choice: ComposeTemplateChoice, ready: boolean): void {
  const ask = useAppStore((state) => state.composeTemplatePlanRequest);
  const draft = useAppStore((state) => state.composeDraft);
  const pending = useAppStore((state) => state.composePending);
  useEffect(() => {
    if (!ready) return undefined;
    const timer = setTimeout(() => void ask(), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [choice, draft, ready, ask, pending]);
}

function ModeField({ choice }: { choice: ComposeTemplateChoice }) {
  const setMode = useAppStore((state) => state.composeSetTemplateMode);
  const newSeed = useAppStore((state) => state.composeNewTemplateSeed);
  return (
    <fieldset className="compose__template-mode">
      <legend>{t('compose.template.mode.label')}</legend>
      <label>
        <input
          type="radio"
          checked={choice.mode === 'combinatorial'}
          onChange={() => setMode('combinatorial')}
        />
        {t('compose.template.mode.all')}
      </label>
      <label>
        <input type="radio" checked={choice.mode === 'random'} onChange={() => setMode('random')} />
        {t('compose.template.mode.random', { count: choice.randomCount })}
      </label>
      {choice.mode === 'random' ? (
        <span>
          {t('compose.template.seed', { seed: String(choice.seed) })}{' '}
          <Button variant="ghost" size="small" onClick={newSeed}>
            {t('compose.template.newSeed')}
          </Button>
        </span>
      ) : null}
    </fieldset>
  );
}

/** Main's word on the run: the estimate (as the form's cost line), the caps, the negative prompt. */
function PlanNotes({ plan }: { plan: TemplatePlanOutput }) {
  const priced = plan.estimate.perPrompt.find((cost) => 'micros' in cost);
  const total = plan.estimate.totals[0];
  return (
    <div className="compose__cost">
      {priced && 'micros' in priced && total ? (
        <p className="muted">
          {t('costs.compose.estimate', {
            total: formatCost(total.micros, total.unit),
            each: formatCost(priced.micros, priced.unit),
            source: t(`costs.source.${priced.source}`),
          })}
        </p>
      ) : null}
      {[...plan.warnings, ...(plan.hardCap ? [plan.hardCap.refusal] : [])].map((said, n) => (
        <p key={n} className="tone--warning">
          {errorText({ message: '', sentence: said })}
        </p>
      ))}
      {plan.negative && !plan.negative.sent ? (
        <p className="muted">
          {plan.negative.why ? errorText({ message: '', sentence: plan.negative.why }) : null}
        </p>
      ) : null}
    </div>
  );
}

function PreviewList({ preview }: { preview: Preview }) {
  const setMode = useAppStore((state) => state.composeSetTemplateMode);
  if (preview.kind === 'error') return <p className="tone--danger">{preview.text}</p>;
  if (preview.kind === 'tooMany') {
    return (
      <div>
        <p className="tone--warning">
          {t('compose.template.tooMany', { count: preview.count, limit: RANDOM_PROMPTS })}
        </p>
        <Button size="small" onClick={() => setMode('random', RANDOM_PROMPTS)}>
          {t('compose.template.useRandom', { count: RANDOM_PROMPTS })}
        </Button>
      </div>
    );
  }
  return (
    <section aria-label={t('compose.template.previewLabel')}>
      <p>{t('compose.template.count', { count: preview.prompts.length })}</p>
      <ol className="compose__template-prompts">
        {preview.prompts.map((prompt, n) => (
          <li key={n} dir="auto">
            {prompt}
          </li>
        ))}
      </ol>
    </section>
  );
}

export function TemplatePanel() {
  const { choice, template, prompt, plan, setValue } = useAppStore(
    useShallow((state) => ({
      choice: state.composeTemplate,
      template: state.templates.find((one) => one.id === state.composeTemplate?.id),
      prompt: state.composeDraft.prompt,
      plan: state.composeTemplatePlan,
      setValue: state.composeSetTemplateValue,
    })),
  );
  const shown = choice ?? { id: '', values: {}, mode: 'combinatorial', randomCount: 0, seed: 0 };
  const { variables, preview } = usePreview(template?.body ?? '', shown, prompt);
  useAskPlan(shown, choice !== null && template !== undefined && preview.kind === 'prompts');
  if (!choice || !template) return null;
  return (
    <div className="compose__template-panel">
      {variables.map((variable) => (
        <TextField
          key={variable.name}
          label={variable.name}
          value={choice.values[variable.name] ?? ''}
          placeholder={variable.defaultValue ?? ''}
          onChange={(value) => setValue(variable.name, value)}
        />
      ))}
      <ModeField choice={choice} />
      <PreviewList preview={preview} />
      {plan && preview.kind === 'prompts' ? <PlanNotes plan={plan} /> : null}
    </div>
  );
}
