/**
 * What the submit the form would make costs, before it is made: main prices the service (the
 * target the submit would carry), model, size and count chosen (`costs:preview`, which changes
 * nothing) and says which spending caps it would pass. Nothing shows while Pictor cannot price it
 * and no cap has a word to say. The prompt plays no part in a price, so typing it asks nothing.
 */
import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { errorText, t } from '../../i18n';
import { formatCost } from '../../lib/cost-text';
import { checkCount, checkModel, checkQuality, checkSize } from '../../lib/request-validation';
import { useAppStore } from '../../store/app-store';
import { composeTarget } from '../../store/compose-slice';

/** How long the form waits after a change before asking main again. */
const SETTLE_MS = 250;

function useAskPreview(): void {
  // The service the submit would carry: the form's, at the address Settings gives it.
  const { provider, endpoint } = useAppStore(
    useShallow((state) => composeTarget(state, state.composeDraft.provider)),
  );
  const { model, size, quality, count } = useAppStore((state) => state.composeDraft);
  const preview = useAppStore((state) => state.costsPreview);
  // A submit changes what the caps' periods have spent: asked again when one is answered.
  const pending = useAppStore((state) => state.composePending);
  // So does a price or a cap set in Settings.
  const prices = useAppStore((state) => state.prices);
  const caps = useAppStore((state) => state.caps);
  useEffect(() => {
    const checked = [checkModel(model), checkSize(size), checkQuality(quality)];
    const many = checkCount(count);
    if (!many.ok || checked.some((field) => !field.ok)) return undefined;
    const request = {
      prompt: 'preview',
      ...(model.trim() ? { model: model.trim() } : {}),
      ...(size.trim() ? { size: size.trim() } : {}),
      ...(quality.trim() ? { quality: quality.trim() } : {}),
    };
    const target = { provider, endpoint };
    const timer = setTimeout(() => void preview({ target, request, count: many.value }), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [provider, endpoint, model, size, quality, count, preview, pending, prices, caps]);
}

export function CostEstimate() {
  useAskPreview();
  const preview = useAppStore((state) => state.costPreview);
  if (!preview) return null;
  const { perTask, count, refusal, warnings } = preview;
  const priced = 'micros' in perTask ? perTask : null;
  const said = [...(refusal ? [refusal] : []), ...warnings];
  if (!priced && said.length === 0) return null;
  return (
    <div className="compose__cost">
      {priced ? (
        <p className="muted">
          {t('costs.compose.estimate', {
            total: formatCost(priced.micros * count, priced.unit),
            each: formatCost(priced.micros, priced.unit),
            source: t(`costs.source.${priced.source}`),
          })}
        </p>
      ) : null}
      {said.map((sentence, index) => (
        <p key={index} className="tone--warning">
          {errorText({ message: '', sentence })}
        </p>
      ))}
    </div>
  );
}
