/**
 * Under the compose form while its service has no key: the sentence names the service, and
 * "Add your <service> key" is a link to that service's section of Settings, its key field
 * focused. Today's contract never lacks one: without a key its tasks go to the built-in demo.
 */
import type { Ref } from 'react';
import { ErrorMessage } from '../../components/error-message';
import { t } from '../../i18n';
import { lacksKey } from '../../lib/service-key-state';
import { demoStandsIn } from '../../../shared/domain/providers';
import { serviceLabel } from '../../lib/service-label';
import { useAppStore } from '../../store/app-store';
import { useServiceKeyState } from '../../store/use-service-key-state';
import { serviceSectionId } from '../../lib/settings-sections';

export function MissingKeyNotice({ linkRef }: { linkRef?: Ref<HTMLAnchorElement> }) {
  const provider = useAppStore((state) => state.composeDraft.provider);
  const state = useServiceKeyState(provider);
  const setView = useAppStore((store) => store.setView);
  const requestFocus = useAppStore((store) => store.requestFocus);
  if (demoStandsIn(provider) || !lacksKey(state)) return null;
  const service = serviceLabel(provider);
  return (
    <ErrorMessage
      role="none"
      tone="warning"
      message={t('compose.missingKey.text', { service })}
      actions={
        <a
          ref={linkRef}
          className="missing-key__link"
          href={`#${serviceSectionId(provider)}`}
          onClick={(event) => {
            event.preventDefault();
            setView('settings');
            requestFocus(`key:${provider}`);
          }}
        >
          {t('compose.missingKey.link', { service })}
        </a>
      }
    />
  );
}
