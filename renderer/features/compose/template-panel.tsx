/**
 * The compose form with a template chosen: one field per variable (its default as placeholder),
 * the expansion mode (All combinations, or Random N with its seed and "New seed"), and a live
 * preview of every prompt, expanded here with the shared expander for instant feedback (a
 * language error with its line and column; over 100 prompts the limit's sentence and "Use random
 * 100"). Main's plan (`templates:plan`, asked once the form settles) gives the estimate, the caps'
 * warnings and whether the negative prompt is sent; Generate then runs what main expands.
 */
import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { TemplatePlanOutput } from '../../../shared/ipc/template-contract';
import { Button } from '../../components/button';
import { TextField } from '../../components/text-field';
import { errorText, t } from '../../i18n';
import { formatCost } from '../../lib/cost-text';
import { useAppStore } from '../../store/app-store';
import { RANDOM_PROMPTS } from '../../store/compose-template-actions';
import type { ComposeTemplateChoice } from '../../store/templates-slice';
import { useTemplateExpansion, type TemplatePreview } from './use-template-expansion';

/** How long the form waits after a change before asking main for its plan. */
const SETTLE_MS = 300;

/** What the plan's effect depends on while no template is chosen (it asks nothing then). */
const NO_CHOICE: ComposeTemplateChoice = {
  id: '',
  values: {},
  mode: 'combinatorial',
  randomCount: 0,
  seed: 0,
};

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

/**
 * Main's word on the run: the estimate (as the form's cost line), the caps, the negative prompt.
 * `forecastId` names it while it speaks of a cap, for Generate to be described by it.
 */
function PlanNotes({ plan, forecastId }: { plan: TemplatePlanOutput; forecastId: string }) {
  const priced = plan.estimate.perPrompt.find((cost) => 'micros' in cost);
  const total = plan.estimate.totals[0];
  const capSpeaks = plan.warnings.length > 0 || plan.hardCap !== null;
  return (
    <div className="compose__cost" id={capSpeaks ? forecastId : undefined}>
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

function PreviewList({ preview }: { preview: TemplatePreview }) {
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

/** `forecastId`: the id Generate is described by while a cap speaks of the run. */
export function TemplatePanel({ forecastId }: { forecastId: string }) {
  const { choice, plan, setValue } = useAppStore(
    useShallow((state) => ({
      choice: state.composeTemplate,
      plan: state.composeTemplatePlan,
      setValue: state.composeSetTemplateValue,
    })),
  );
  const expansion = useTemplateExpansion();
  const ready = expansion !== null && expansion.preview.kind === 'prompts';
  useAskPlan(choice ?? NO_CHOICE, ready);
  if (!choice || !expansion) return null;
  const { variables, preview } = expansion;
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
      {plan && preview.kind === 'prompts' ? (
        <PlanNotes plan={plan} forecastId={forecastId} />
      ) : null}
    </div>
  );
}
