/** The Costs screen's list: each task of the period with its service, model and cost. */
import type { CostLedger } from '../../../shared/ipc/cost-contract';
import { formatDateTime, isoDate, t } from '../../i18n';
import { IsolatedName } from '../../components/isolated-name';
import { costLine } from '../../lib/cost-text';
import { serviceLabel } from '../../lib/service-label';

export function CostEntries({ ledger }: { ledger: CostLedger }) {
  return (
    <section className="costs-section" aria-labelledby="costs-list-title">
      <h2 id="costs-list-title">{t('costs.list.title')}</h2>
      {ledger.total > ledger.entries.length ? (
        <p className="muted">
          {t('costs.list.more', { shown: ledger.entries.length, total: ledger.total })}
        </p>
      ) : null}
      <div className="costs-table-wrap">
        <table className="costs-table">
          <thead>
            <tr>
              <th scope="col">{t('costs.list.created')}</th>
              <th scope="col">{t('costs.list.service')}</th>
              <th scope="col">{t('costs.list.model')}</th>
              <th scope="col">{t('costs.list.cost')}</th>
            </tr>
          </thead>
          <tbody>
            {ledger.entries.map((entry) => (
              <tr key={entry.localId}>
                <td>
                  <time dateTime={isoDate(entry.createdAt)}>{formatDateTime(entry.createdAt)}</time>
                </td>
                <td>{serviceLabel(entry.provider)}</td>
                <td className="costs-table__model">
                  <IsolatedName name={entry.model ?? undefined} fallback="—" />
                </td>
                <td>{costLine(entry.cost)}</td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
    </section>
  );
}
