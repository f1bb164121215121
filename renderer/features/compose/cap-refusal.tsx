/**
 * A submit a hard spending cap refused, said from main's data (`capRefusal` of the IPC error,
 * core/costs/cap-check.ts) in the window's words: first the cap, what its period has spent and
 * what the submit adds; then each price the cap lacks, with a link that opens Settings › Costs
 * with the price form set to that service, model and unit and its amount focused (as the missing
 * key's link focuses the key's field). The CLI says the same data naming `pictor prices set`.
 */
import type { CapForecast } from '../../../shared/ipc/cost-contract';
import type { CostUnit } from '../../../shared/domain/task-cost';
import { ErrorMessage } from '../../components/error-message';
import { t } from '../../i18n';
import { formatCost } from '../../lib/cost-text';
import { serviceLabel } from '../../lib/service-label';
import { useAppStore } from '../../store/app-store';

type MissingPrice = CapForecast['missing'][number];

/** A cap's unit as the window names it (credits in the shown language). */
export function unitName(unit: CostUnit): string {
  return unit === 'credits' ? t('costs.settings.creditsUnit') : unit;
}

/**
 * A cap's figures as its sentences take them (the refusal's lead, the forecast): its period, its
 * amount, what its period spent and what the submit adds, and the service it is for, if one.
 */
export function capFigures(said: Pick<CapForecast, 'cap' | 'spentMicros' | 'addingMicros'>) {
  const { cap } = said;
  return {
    period: cap.period,
    cap: formatCost(cap.micros, cap.unit),
    spent: formatCost(said.spentMicros, cap.unit),
    adding: formatCost(said.addingMicros, cap.unit),
    scope: cap.provider === null ? 'all' : 'one',
    service: cap.provider === null ? '' : serviceLabel(cap.provider),
  };
}

function leadOf(refusal: CapForecast): string {
  return t('costs.refusal.lead', capFigures(refusal));
}

/** Why the cap cannot count some tasks: the forecast's own sentences, in the window's language. */
export function missingText(missing: MissingPrice, refusal: CapForecast): string {
  const common = {
    period: refusal.cap.period,
    unit: unitName(refusal.cap.unit),
    service: serviceLabel(missing.service),
  };
  if (missing.of === 'submit')
    return t('costs.forecast.unpriced', {
      ...common,
      named: missing.model ? 'yes' : 'no',
      model: missing.model,
    });
  return t('costs.forecast.unpricedSpent', { ...common, tasks: missing.tasks });
}

function MissingPriceLine({ missing, refusal }: { missing: MissingPrice; refusal: CapForecast }) {
  const askPrice = useAppStore((state) => state.costsAskPrice);
  const { unit } = refusal.cap;
  // A price for this submit's model; the period's tasks are counted by one for every model.
  const model = missing.of === 'submit' ? missing.model : '';
  return (
    <li>
      {missingText(missing, refusal)}{' '}
      <a
        className="cap-refusal__link"
        href="#settings-costs"
        onClick={(event) => {
          event.preventDefault();
          askPrice({ provider: missing.service, model, unit });
        }}
      >
        {t('costs.refusal.setPrice', {
          unit: unitName(unit),
          service: serviceLabel(missing.service),
        })}
      </a>
    </li>
  );
}

export function CapRefusal({
  refusal,
  detail,
  onDismiss,
}: {
  refusal: CapForecast;
  detail: string | undefined;
  onDismiss: () => void;
}) {
  return (
    <ErrorMessage
      message={leadOf(refusal)}
      detail={detail}
      onDismiss={onDismiss}
      actions={
        refusal.missing.length > 0 ? (
          <ul className="cap-refusal__missing">
            {refusal.missing.map((missing) => (
              <MissingPriceLine
                key={`${missing.of}/${missing.service}/${missing.model}`}
                missing={missing}
                refusal={refusal}
              />
            ))}
          </ul>
        ) : undefined
      }
    />
  );
}
