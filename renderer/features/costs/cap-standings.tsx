/**
 * The Costs screen's spending caps: each with what its period has spent so far, the figure main
 * computes once for every view of a cap (core/costs/cap-spend.ts: Settings, `pictor caps list`,
 * `pictor costs`, the refusals), tasks sent before their service had a price counted at today's.
 */
import type { CapStanding } from '../../../shared/ipc/cost-contract';
import { t } from '../../i18n';
import { formatCost } from '../../lib/cost-text';
import { serviceLabel } from '../../lib/service-label';

export function CapStandings({ caps }: { caps: readonly CapStanding[] }) {
  if (caps.length === 0) return null;
  return (
    <section className="cost-caps" aria-labelledby="cost-caps-title">
      <h2 id="cost-caps-title">{t('costs.settings.caps')}</h2>
      <ul>
        {caps.map(({ cap, spentMicros }) => (
          <li key={`${cap.period}/${cap.unit}/${cap.provider ?? ''}/${cap.kind}`}>
            {t('costs.settings.capLine', {
              kind: cap.kind,
              period: cap.period,
              scope: cap.provider ? serviceLabel(cap.provider) : t('costs.settings.allServices'),
              cap: formatCost(cap.micros, cap.unit),
              spent: formatCost(spentMicros, cap.unit),
            })}
          </li>
        ))}
      </ul>
    </section>
  );
}
