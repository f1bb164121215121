/**
 * "Service": shows only the tasks (or images) of one service, or of all. Existing records are
 * today's contract's. A labelled native select placed inside the filter toolbar beside the other
 * filters (lib/roving-focus.ts), so it adds no Tab stop: Left and Right reach it from the chips,
 * Up and Down choose in it.
 */
import { useId } from 'react';
import { PROVIDER_IDS, type ProviderId } from '../../shared/domain/providers';
import { t } from '../i18n';
import { serviceLabel } from '../lib/service-label';

export interface ServiceFilterProps {
  /** '' for every service. */
  readonly value: ProviderId | '';
  readonly onChange: (provider: ProviderId | '') => void;
  readonly className?: string;
}

export function ServiceFilter({ value, onChange, className }: ServiceFilterProps) {
  const id = useId();
  return (
    <div className={className}>
      <label htmlFor={id}>{t('filter.service.label')}</label>
      <select
        id={id}
        className="select"
        value={value}
        onChange={(event) => {
          const chosen = PROVIDER_IDS.find((provider) => provider === event.target.value);
          onChange(chosen ?? '');
        }}
      >
        <option value="">{t('filter.service.all')}</option>
        {PROVIDER_IDS.map((provider) => (
          <option key={provider} value={provider}>
            {serviceLabel(provider)}
          </option>
        ))}
      </select>
    </div>
  );
}
