/**
 * The Costs screen: what the tasks of a period (and one service, or all) cost, as main's ledger
 * says: totals per unit, a chart per day and per service, each task with its prompt and cost, and
 * the same ledger saved as CSV where main's own dialog says; a link to the prices and caps. Read
 * again each time the screen is shown, and while it is shown when main says the ledger changed
 * (`costs:changed`: a cost a service reports late, a task removed, a price), never on task
 * updates, so two hundred polling tasks cost it nothing. An empty period says which filter left
 * it empty; "No costs yet" is only for a ledger with nothing in it.
 */
import { useEffect } from 'react';
import { Button } from '../../components/button';
import { EmptyState } from '../../components/empty-state';
import { ErrorMessage } from '../../components/error-message';
import { SelectField } from '../../components/select-field';
import { ServiceFilter } from '../../components/service-filter';
import { Spinner } from '../../components/spinner';
import { t } from '../../i18n';
import { serviceIdLabel } from '../../lib/service-label';
import { useAppStore } from '../../store/app-store';
import { COST_PERIODS } from '../../store/costs-slice';
import { CapStandings } from './cap-standings';
import { CostEntries } from './cost-entries';
import { CostTotals } from './cost-totals';
import './costs.css';

function CostsToolbar() {
  const period = useAppStore((state) => state.costsPeriod);
  const provider = useAppStore((state) => state.costsProvider);
  const setPeriod = useAppStore((state) => state.costsSetPeriod);
  const setProvider = useAppStore((state) => state.costsSetProvider);
  const exportCsv = useAppStore((state) => state.costsExport);
  const savedTo = useAppStore((state) => state.costsSavedTo);
  const pricesAndCaps = useAppStore((state) => state.costsShowPricesAndCaps);
  return (
    <>
      <div className="costs-toolbar">
        <SelectField
          className="costs-toolbar__field"
          label={t('costs.period.label')}
          value={period}
          options={COST_PERIODS.map((value) => ({ value, label: t(`costs.period.${value}`) }))}
          onChange={setPeriod}
        />
        <ServiceFilter className="costs-toolbar__field" value={provider} onChange={setProvider} />
        <Button onClick={() => void exportCsv()}>{t('costs.export')}</Button>
        <Button variant="ghost" icon="settings" onClick={pricesAndCaps}>
          {t('costs.pricesAndCaps')}
        </Button>
      </div>
      <p role="status" className="muted costs-saved">
        {savedTo ? t('costs.exported', { path: savedTo }) : ''}
      </p>
    </>
  );
}

/** The ledger has tasks, none in the period and service chosen: which filter, and a way out. */
function EmptyFilter() {
  const period = useAppStore((state) => state.costsPeriod);
  const provider = useAppStore((state) => state.costsProvider);
  const setPeriod = useAppStore((state) => state.costsSetPeriod);
  const setProvider = useAppStore((state) => state.costsSetProvider);
  const scope = provider === '' ? 'all' : 'one';
  const service = provider === '' ? '' : serviceIdLabel(provider);
  return (
    <EmptyState
      title={t('costs.emptyFilter.title', { period, scope, service })}
      body={t('costs.emptyFilter.body', { period, scope, service })}
      action={
        <div className="costs-empty-actions">
          {period !== 'all' ? (
            <Button onClick={() => setPeriod('all')}>{t('costs.emptyFilter.allTime')}</Button>
          ) : null}
          {provider !== '' ? (
            <Button onClick={() => setProvider('')}>{t('costs.emptyFilter.allServices')}</Button>
          ) : null}
        </div>
      }
    />
  );
}

/** The caps and what each has spent, as main read them with the ledger. */
function LedgerCaps() {
  const caps = useAppStore((state) => state.costsLedger?.caps);
  return caps ? <CapStandings caps={caps} /> : null;
}

function CostsBody() {
  const ledger = useAppStore((state) => state.costsLedger);
  const status = useAppStore((state) => state.costsStatus);
  const error = useAppStore((state) => state.costsError);
  if (status === 'error' && error) {
    return <ErrorMessage message={error.text()} detail={error.detail} />;
  }
  if (!ledger) return <Spinner size="large" label={t('costs.loading')} />;
  if (ledger.total === 0 && ledger.allTime > 0) return <EmptyFilter />;
  if (ledger.total === 0) {
    return <EmptyState title={t('costs.empty.title')} body={t('costs.empty.body')} />;
  }
  return (
    <>
      <CostTotals totals={ledger.totals} />
      <CostEntries ledger={ledger} />
    </>
  );
}

/**
 * Reads the ledger when the screen is shown, and again while it is shown each time main says the
 * ledger moved past the version read (the store runs one read at a time, and one more after it
 * for whatever changed meanwhile).
 */
function useLedgerWhileShown(active: boolean): void {
  const load = useAppStore((state) => state.costsLoad);
  const version = useAppStore((state) => state.costsVersion);
  const read = useAppStore((state) => state.costsLedger?.version);
  useEffect(() => {
    if (active) void load();
  }, [active, load]);
  useEffect(() => {
    if (active && version > 0 && read !== undefined && version !== read) void load();
  }, [active, version, read, load]);
}

export function CostsView({ active }: { active: boolean }) {
  useLedgerWhileShown(active);
  return (
    <div className="costs-view">
      <div className="costs-view__inner">
        <h1>{t('costs.title')}</h1>
        <CostsToolbar />
        <LedgerCaps />
        <CostsBody />
      </div>
    </div>
  );
}
