/**
 * Settings › Costs › Spending caps: per day or month, in one unit, over every service or one,
 * soft (a warning before the submit) or hard (the submit is refused), each with what its period
 * has spent so far. Setting or raising a cap happens here, by the user, and nowhere else.
 */
import { useState } from 'react';
import type { CapPeriod } from '../../../shared/domain/cost-ledger';
import type { ProviderId } from '../../../shared/domain/providers';
import type { CostUnit } from '../../../shared/domain/task-cost';
import { Button } from '../../components/button';
import { SelectField } from '../../components/select-field';
import { t } from '../../i18n';
import { formatCost } from '../../lib/cost-text';
import { serviceLabel } from '../../lib/service-label';
import { useAppStore } from '../../store/app-store';
import { AmountFields } from './amount-field';
import { SERVICE_CHOICES, kindChoices, periodChoices, readAmount } from './cost-choices';

function CapList() {
  const caps = useAppStore((state) => state.caps);
  const clear = useAppStore((state) => state.costsClearCap);
  if (caps.length === 0) return <p className="muted">{t('costs.settings.noCaps')}</p>;
  return (
    <ul className="cost-settings-list">
      {caps.map(({ cap, spentMicros }) => {
        const { micros, ...key } = cap;
        return (
          <li key={`${cap.period}/${cap.unit}/${cap.provider ?? ''}/${cap.kind}`}>
            <span>
              {t('costs.settings.capLine', {
                kind: cap.kind,
                period: cap.period,
                scope: cap.provider ? serviceLabel(cap.provider) : t('costs.settings.allServices'),
                cap: formatCost(micros, cap.unit),
                spent: formatCost(spentMicros, cap.unit),
              })}
            </span>
            <Button size="small" onClick={() => void clear(key)}>
              {t('costs.settings.remove')}
            </Button>
          </li>
        );
      })}
    </ul>
  );
}

export function CapsForm() {
  const setCap = useAppStore((state) => state.costsSetCap);
  const [period, setPeriod] = useState<CapPeriod>('day');
  const [amount, setAmount] = useState('');
  const [unit, setUnit] = useState<CostUnit>('USD');
  const [provider, setProvider] = useState<ProviderId | ''>('');
  const [kind, setKind] = useState<'soft' | 'hard'>('hard');
  const [error, setError] = useState<string | null>(null);
  const submit = async () => {
    const read = readAmount(amount, unit, 'cap');
    if ('error' in read) return setError(read.error);
    setError(null);
    const cap = { period, unit, provider: provider || null, kind, micros: read.micros };
    if (await setCap(cap)) setAmount('');
  };
  return (
    <div className="cost-settings">
      <h3>{t('costs.settings.caps')}</h3>
      <p className="muted">{t('costs.settings.capsHint')}</p>
      <CapList />
      <form
        className="settings-grid"
        aria-label={t('costs.settings.caps')}
        onSubmit={(event) => (event.preventDefault(), void submit())}
      >
        <SelectField
          label={t('costs.settings.period')}
          value={period}
          options={periodChoices()}
          onChange={setPeriod}
        />
        <AmountFields
          amount={amount}
          onAmount={setAmount}
          unit={unit}
          onUnit={setUnit}
          error={error}
        />
        <SelectField
          label={t('costs.settings.service')}
          value={provider}
          options={[
            { value: '' as const, label: t('costs.settings.allServices') },
            ...SERVICE_CHOICES,
          ]}
          onChange={setProvider}
        />
        <SelectField
          label={t('costs.settings.kind')}
          value={kind}
          options={kindChoices()}
          onChange={setKind}
        />
        <div className="settings-actions">
          <Button type="submit">{t('costs.settings.setCap')}</Button>
        </div>
      </form>
    </div>
  );
}
