/**
 * What the submit the form would make costs, before it is made: main prices the service (the
 * target the submit would carry), model, size and count chosen (`costs:preview`, which changes
 * nothing) and gives each spending cap's word as data, which the form words as a forecast in the
 * reader's language ("Generating 6 (about $0.30) would pass your daily cap of $0.25; $0.00 spent
 * today"), with a link to the prices and caps. Generate shows the verdict (blocked by a hard cap,
 * warned by a soft one). A submit a hard cap refuses is said once, by its refusal; the forecast
 * then keeps quiet. Asked again as costs are reported, so "spent" stays live. The prompt plays no
 * part in a price, so typing it asks nothing.
 */
import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import type { CapForecast, CostPreviewAnswer } from '../../../shared/ipc/cost-contract';
import type { TemplatePlanOutput } from '../../../shared/ipc/template-contract';
import { costErrors } from '../../../shared/i18n/errors/costs';
import { Button } from '../../components/button';
import { capFigures, missingText, unitName } from './cap-refusal';
import { decimalSeparator, t } from '../../i18n';
import { formatCost } from '../../lib/cost-text';
import { checkCount, checkModel, checkQuality, checkSize } from '../../lib/request-validation';
import { serviceLabel } from '../../lib/service-label';
import { useAppStore } from '../../store/app-store';
import type { AppState } from '../../store/app-state';
import { composeTarget } from '../../store/compose-model';
import { draftParams } from '../../store/compose-params';

/** How long the form waits after a change before asking main again. */
const SETTLE_MS = 250;

function useAskPreview(): void {
  // The service the submit would carry: the form's, at the address Settings gives it.
  const { provider, endpoint } = useAppStore(
    useShallow((state) => composeTarget(state, state.composeDraft.provider)),
  );
  const { model, size, quality, count } = useAppStore((state) => state.composeDraft);
  // The options that change a price (images per task, resolution tier) are main's to read: all
  // the valid ones go with the request, as Generate would send them.
  const params = useAppStore(
    useShallow((state) => draftParams(state.composeDraft, decimalSeparator()).values),
  );
  const preview = useAppStore((state) => state.costsPreview);
  // A submit changes what the caps' periods have spent: asked again when one is answered.
  const pending = useAppStore((state) => state.composePending);
  // So does a price or a cap set in Settings, and a cost a service reports.
  const prices = useAppStore((state) => state.prices);
  const caps = useAppStore((state) => state.caps);
  const ledgerTick = useAppStore((state) => state.costsLedgerTick);
  useEffect(() => {
    const checked = [checkModel(model), checkSize(size), checkQuality(quality)];
    const many = checkCount(count);
    if (!many.ok || checked.some((field) => !field.ok)) return undefined;
    const request = {
      prompt: 'preview',
      ...(model.trim() ? { model: model.trim() } : {}),
      ...(size.trim() ? { size: size.trim() } : {}),
      ...(quality.trim() ? { quality: quality.trim() } : {}),
      ...(Object.keys(params).length > 0 ? { params } : {}),
    };
    const target = { provider, endpoint };
    const timer = setTimeout(() => void preview({ target, request, count: many.value }), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [
    provider,
    endpoint,
    model,
    size,
    quality,
    count,
    params,
    preview,
    pending,
    prices,
    caps,
    ledgerTick,
  ]);
}

/** What the caps say of the submit: a hard cap will refuse it, a soft one warns, or nothing. */
export type CapVerdict = 'blocked' | 'warned' | null;

function capVerdict(preview: CostPreviewAnswer | null): CapVerdict {
  const caps = preview?.caps ?? [];
  if (caps.some((said) => said.cap.kind === 'hard')) return 'blocked';
  return caps.length > 0 ? 'warned' : null;
}

/** What main's plan of a template run says of the whole expansion: the same verdicts. */
function planVerdict(plan: TemplatePlanOutput | null): CapVerdict {
  if (plan === null) return null;
  if (plan.hardCap !== null) return 'blocked';
  return plan.warnings.length > 0 ? 'warned' : null;
}

/**
 * The verdict Generate shows, quiet while a refusal of the last submit already says it. With a
 * template chosen it is main's verdict on every task of the expansion (its plan), never the
 * prompt box's single request.
 */
export function useCapVerdict(): CapVerdict {
  const preview = useAppStore((state) => state.costPreview);
  const plan = useAppStore((state) => state.composeTemplatePlan);
  const templated = useAppStore(isTemplated);
  const refused = useAppStore((state) => isCostRefusal(state.composeSubmitError?.sentenceKey));
  if (refused) return null;
  return templated ? planVerdict(plan) : capVerdict(preview);
}

/** Whether the form has a template (that the library has) chosen. */
function isTemplated(state: AppState): boolean {
  return state.templates.some((one) => one.id === state.composeTemplate?.id);
}

/** A refusal of the submit by a spending cap (a sentence of shared/i18n/errors/costs.ts). */
function isCostRefusal(key: string | undefined): boolean {
  return key !== undefined && Object.hasOwn(costErrors, key);
}

/** One cap's forecast as a sentence in the shown language. */
function forecastText(said: CapForecast, count: number): string {
  const { cap } = said;
  const common = { period: cap.period, unit: unitName(cap.unit) };
  switch (said.verdict) {
    case 'unpriced':
      return t('costs.forecast.unpriced', {
        ...common,
        service: serviceLabel(said.service),
        named: said.model ? 'yes' : 'no',
        model: said.model,
      });
    case 'unpricedSpent':
      return t('costs.forecast.unpricedSpent', {
        ...common,
        service: serviceLabel(said.service),
        tasks: said.tasks,
      });
    default:
      return t('costs.forecast.over', {
        ...common,
        ...capFigures(said),
        count,
        kind: cap.kind,
      });
  }
}

/**
 * The prices a hard cap lacks besides what its first sentence says: all of them when it is passed
 * (the sentence is the sum's), the others when the sentence is about the first missing price.
 */
function alsoMissing(said: CapForecast): CapForecast['missing'] {
  return said.verdict === 'over' ? said.missing : said.missing.slice(1);
}

function Forecast({ preview, id }: { preview: CostPreviewAnswer; id: string }) {
  const verdict = useCapVerdict();
  if (verdict === null) return null;
  return (
    <div id={id} className="compose__forecast">
      {preview.caps.map((said, index) => (
        <p key={index} className="tone--warning">
          {forecastText(said, preview.count)}
        </p>
      ))}
      {preview.caps.flatMap((said, index) =>
        alsoMissing(said).map((missing) => (
          <p
            key={`${index}/${missing.of}/${missing.service}/${missing.model}`}
            className="tone--warning"
          >
            {missingText(missing, said)}
          </p>
        )),
      )}
      <p className="tone--warning">
        {t(verdict === 'blocked' ? 'costs.forecast.blocked' : 'costs.forecast.warned')}
      </p>
    </div>
  );
}

/** `forecastId`: the id of the forecast, which describes Generate while a cap speaks. */
export function CostEstimate({ forecastId }: { forecastId: string }) {
  useAskPreview();
  const preview = useAppStore((state) => state.costPreview);
  const refused = useAppStore((state) => isCostRefusal(state.composeSubmitError?.sentenceKey));
  const pricesAndCaps = useAppStore((state) => state.costsShowPricesAndCaps);
  // With a template chosen, its panel gives main's estimate of the expansion (template-panel.tsx):
  // this line would price the prompt box's text alone, a second and different figure.
  const templated = useAppStore(isTemplated);
  if (!preview || templated) return null;
  const priced = 'micros' in preview.perTask ? preview.perTask : null;
  const speaks = preview.caps.length > 0 || refused;
  if (!priced && !speaks) return null;
  return (
    <div className="compose__cost">
      {priced ? (
        <p className="muted">
          {t('costs.compose.estimate', {
            total: formatCost(priced.micros * preview.count, priced.unit),
            each: formatCost(priced.micros, priced.unit),
            source: t(`costs.source.${priced.source}`),
          })}
        </p>
      ) : null}
      <Forecast preview={preview} id={forecastId} />
      {speaks ? (
        <div>
          <Button variant="ghost" size="small" icon="settings" onClick={pricesAndCaps}>
            {t('costs.pricesAndCaps')}
          </Button>
        </div>
      ) : null}
    </div>
  );
}
