/**
 * "Service": shows only the tasks (or images) of one service, or of all. Existing records are
 * today's contract's. A labelled native select placed inside the filter toolbar beside the other
 * filters (lib/roving-focus.ts), so it adds no Tab stop: Left and Right reach it from the chips,
 * Up and Down choose in it.
 */
import { PROVIDER_IDS, type ProviderId } from '../../shared/domain/providers';
import { t } from '../i18n';
import { serviceLabel } from '../lib/service-label';
import { SelectField } from './select-field';

export interface ServiceFilterProps {
  /** '' for every service. */
  readonly value: ProviderId | '';
  readonly onChange: (provider: ProviderId | '') => void;
  readonly className?: string;
}

export function ServiceFilter({ value, onChange, className }: ServiceFilterProps) {
  const options = [
    { value: '' as const, label: t('filter.service.all') },
    ...PROVIDER_IDS.map((provider) => ({ value: provider, label: serviceLabel(provider) })),
  ];
  return (
    <SelectField
      label={t('filter.service.label')}
      value={value}
      options={options}
      onChange={onChange}
      className={className}
    />
  );
}
