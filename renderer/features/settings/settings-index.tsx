/**
 * Settings' index: "Connect a service", then every service with its state at a glance (connected
 * and checked, key not checked, no key…), then the other sections. Each entry is a link that
 * brings its section into view and moves the focus there. Beside the sections on a wide window,
 * above them on a narrow one.
 */
import { useId, type MouseEvent } from 'react';
import { PROVIDER_IDS } from '../../../shared/domain/providers';
import { Button } from '../../components/button';
import { t, type MessageKey } from '../../i18n';
import { serviceLabel } from '../../lib/service-label';
import { useAppStore } from '../../store/app-store';
import { ServiceStateBadge } from './service-state-badge';
import { jumpTo, serviceSectionId } from '../../lib/settings-sections';

/** The sections after the services, in the order Settings shows them: id and title. */
const OTHER_SECTIONS = [
  ['settings-defaults', 'settings.defaults.title'],
  ['settings-costs', 'costs.settings.title'],
  ['settings-gallery', 'settings.gallery.title'],
  ['settings-behaviour', 'settings.behaviour.title'],
  ['settings-library', 'settings.archive.title'],
  ['settings-about', 'settings.about.title'],
] as const satisfies ReadonlyArray<readonly [string, MessageKey]>;

function jump(event: MouseEvent<HTMLAnchorElement>, id: string): void {
  event.preventDefault();
  jumpTo(id);
}

export function SettingsIndex() {
  const connect = useAppStore((state) => state.connectShow);
  const services = useId();
  const more = useId();
  return (
    <nav className="settings-index" aria-label={t('settings.index.label')}>
      <Button icon="link" variant="primary" onClick={() => connect(true)}>
        {t('settings.connect.open')}
      </Button>
      <p className="settings-index__group" id={services}>
        {t('settings.index.services')}
      </p>
      <ul aria-labelledby={services}>
        {PROVIDER_IDS.map((provider) => {
          const id = serviceSectionId(provider);
          return (
            <li key={provider}>
              <a href={`#${id}`} onClick={(event) => jump(event, id)}>
                <span className="settings-index__name">{serviceLabel(provider)}</span>{' '}
                <ServiceStateBadge provider={provider} />
              </a>
            </li>
          );
        })}
      </ul>
      <p className="settings-index__group" id={more}>
        {t('settings.index.more')}
      </p>
      <ul aria-labelledby={more}>
        {OTHER_SECTIONS.map(([id, title]) => (
          <li key={id}>
            <a href={`#${id}`} onClick={(event) => jump(event, id)}>
              {t(title)}
            </a>
          </li>
        ))}
      </ul>
    </nav>
  );
}
