/**
 * The period's totals, one per unit (never two units in one sum), each with its estimated part,
 * then a chart per day and per service for each unit.
 */
import type { CostUnit } from '../../../shared/domain/task-cost';
import type { CostLedger } from '../../../shared/ipc/cost-contract';
import { formatDay, t } from '../../i18n';
import { formatCost } from '../../lib/cost-text';
import { serviceLabel } from '../../lib/service-label';
import { CostBars } from './cost-bars';

type Totals = CostLedger['totals'];

/** A chart's bars: each sum under its key, labelled as the key reads. */
function barsOf<Sum extends { readonly micros: number }, Key extends string>(
  sums: readonly Sum[],
  keyOf: (sum: Sum) => Key,
  labelOf: (key: Key) => string,
) {
  return sums.map((sum) => ({ key: keyOf(sum), label: labelOf(keyOf(sum)), micros: sum.micros }));
}

function UnitCharts({ totals, unit }: { totals: Totals; unit: CostUnit }) {
  const days = totals.byDay.filter((sum) => sum.unit === unit);
  const services = totals.byService.filter((sum) => sum.unit === unit);
  return (
    <div className="costs-charts">
      <CostBars
        caption={t('costs.byDay.title', { unit })}
        unit={unit}
        bars={barsOf(days, (sum) => sum.day, formatDay)}
      />
      <CostBars
        caption={t('costs.byService.title', { unit })}
        unit={unit}
        bars={barsOf(services, (sum) => sum.provider, serviceLabel)}
      />
    </div>
  );
}

export function CostTotals({ totals }: { totals: Totals }) {
  return (
    <section className="costs-section" aria-labelledby="costs-totals-title">
      <h2 id="costs-totals-title">{t('costs.totals.title')}</h2>
      <ul className="costs-totals">
        {totals.overall.map((sum) => (
          <li key={sum.unit} className="costs-totals__item">
            <span className="costs-totals__amount">{formatCost(sum.micros, sum.unit)}</span>
            {sum.estimatedMicros > 0 ? (
              <span className="muted">
                {t('costs.totals.estimated', { amount: formatCost(sum.estimatedMicros, sum.unit) })}
              </span>
            ) : null}
          </li>
        ))}
      </ul>
      {totals.unknownTasks > 0 ? (
        <p className="muted">{t('costs.totals.unknown', { count: totals.unknownTasks })}</p>
      ) : null}
      {totals.overall.map((sum) => (
        <UnitCharts key={sum.unit} totals={totals} unit={sum.unit} />
      ))}
    </section>
  );
}
