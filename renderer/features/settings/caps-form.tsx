/**
 * Settings › Costs › Spending caps: per day or month, in one unit, over every service or one,
 * soft (a warning before the submit) or hard (the submit is refused), each with what its period
 * has spent so far. Setting or raising a cap happens here, by the user, and nowhere else. The
 * built-in demo is free and no cap counts it (core/costs/cap-check.ts): the screen says so, as it
 * is no choice of service here.
 */
import { SelectField } from '../../components/select-field';
import { t } from '../../i18n';
import { formatCost } from '../../lib/cost-text';
import { serviceLabel } from '../../lib/service-label';
import { useAppStore } from '../../store/app-store';
import { useFormDraft } from '../../store/use-form-draft';
import { AmountFields, useAmountEntry } from './amount-field';
import { serviceChoices, kindChoices, periodChoices } from './cost-choices';
import { CostEntryForm, CostEntryList } from './cost-entries';

function CapList() {
  const caps = useAppStore((state) => state.caps);
  const clear = useAppStore((state) => state.costsClearCap);
  return (
    <CostEntryList
      entries={caps}
      empty={t('costs.settings.noCaps')}
      keyOf={({ cap }) => `${cap.period}/${cap.unit}/${cap.provider ?? ''}/${cap.kind}`}
      line={({ cap, spentMicros }) =>
        t('costs.settings.capLine', {
          kind: cap.kind,
          period: cap.period,
          scope: cap.provider ? serviceLabel(cap.provider) : t('costs.settings.allServices'),
          cap: formatCost(cap.micros, cap.unit),
          spent: formatCost(spentMicros, cap.unit),
        })
      }
      onRemove={({ cap }) => {
        const { micros: _micros, ...key } = cap;
        void clear(key);
      }}
    />
  );
}

export function CapsForm() {
  const setCap = useAppStore((state) => state.costsSetCap);
  const [period, setPeriod] = useFormDraft('cap.period', 'day');
  const [provider, setProvider] = useFormDraft('cap.provider', '');
  const [kind, setKind] = useFormDraft('cap.kind', 'hard');
  const amount = useAmountEntry('cap', (unit, micros) =>
    setCap({ period, unit, provider: provider || null, kind, micros }),
  );
  return (
    <div className="cost-settings">
      <h3>{t('costs.settings.caps')}</h3>
      <p className="muted">{t('costs.settings.capsHint')}</p>
      {/* The caps' rule (core/costs/cap-check.ts): a task that costs nothing passes every cap. */}
      <p className="muted">{t('costs.settings.capsDemo')}</p>
      <CapList />
      <CostEntryForm
        label={t('costs.settings.caps')}
        action={t('costs.settings.setCap')}
        onSubmit={amount.submit}
      >
        <SelectField
          label={t('costs.settings.period')}
          value={period}
          options={periodChoices()}
          onChange={setPeriod}
        />
        <AmountFields {...amount.fields} />
        <SelectField
          label={t('costs.settings.service')}
          value={provider}
          options={[
            { value: '' as const, label: t('costs.settings.allServices') },
            ...serviceChoices(),
          ]}
          onChange={setProvider}
        />
        <SelectField
          label={t('costs.settings.kind')}
          value={kind}
          options={kindChoices()}
          onChange={setKind}
        />
      </CostEntryForm>
    </div>
  );
}
