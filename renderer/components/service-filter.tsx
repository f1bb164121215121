/**
 * "Service": shows only the tasks (or images) of one service, or of all: a provider's, or the
 * built-in demo's, as their rows name them (shared/domain/service-id.ts, one meaning wherever a
 * service is chosen or filtered). Records from before services had profiles are today's
 * contract's. A labelled native select placed inside the filter toolbar beside the other
 * filters (lib/roving-focus.ts), so it adds no Tab stop: Left and Right reach it from the chips,
 * Up and Down choose in it.
 */
import { SERVICE_IDS, type ServiceId } from '../../shared/domain/service-id';
import { t } from '../i18n';
import { serviceIdLabel } from '../lib/service-label';
import { SelectField } from './select-field';

export interface ServiceFilterProps {
  /** '' for every service. */
  readonly value: ServiceId | '';
  readonly onChange: (service: ServiceId | '') => void;
  readonly className?: string;
}

export function ServiceFilter({ value, onChange, className }: ServiceFilterProps) {
  const options = [
    { value: '' as const, label: t('filter.service.all') },
    ...SERVICE_IDS.map((service) => ({ value: service, label: serviceIdLabel(service) })),
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
