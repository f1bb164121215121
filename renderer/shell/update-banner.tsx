/**
 * The app's own updates in the page: the state main sends (`updates:changed`), a banner when a
 * version is on offer or ready ("Restart to update", with its release notes), and the sentences
 * Settings shows. The page only asks (check, download, restart); main decides everything else.
 */
import { useState } from 'react';
import type { UpdateState } from '../../shared/domain/update-state';
import { Button } from '../components/button';
import { Icon } from '../components/icon';
import { t } from '../i18n';
import { useAppStore } from '../store/app-store';
import { updatePlatform, type UpdatePlatform } from '../lib/platform';
import { offerText } from '../lib/update-text';

/** The update state from main (the store asks once at start, then follows `updates:changed`). */
function useUpdateState(): UpdateState | null {
  return useAppStore((store) => store.updates);
}

/** Whether the app runs on a Mac (a copy there that cannot install says why and how). */
function usePlatform(): UpdatePlatform {
  return useAppStore((store) => updatePlatform(store.appInfo?.platform));
}

function ReleaseNotes({ state }: { state: UpdateState }) {
  if (!state.releaseNotes) return null;
  return (
    <details className="banner__details">
      <summary>{t('update.notes', { version: state.version ?? '' })}</summary>
      {/* Plain text from main (markup already removed); newlines kept. */}
      <p style={{ whiteSpace: 'pre-line' }}>{state.releaseNotes}</p>
    </details>
  );
}

/**
 * "Pictor x.y is ready to install" with "Restart to update" (running tasks resume after it), or
 * a version on offer that was only announced. Later hides it until another version comes.
 */
export function UpdateBanner() {
  const state = useUpdateState();
  const restart = useAppStore((store) => store.updatesRestart);
  const download = useAppStore((store) => store.updatesDownload);
  const openDownload = useAppStore((store) => store.updatesOpenDownload);
  const downloadsBySelf = useAppStore((store) => store.settings?.updateMode !== 'notify');
  const platform = usePlatform();
  const [hidden, setHidden] = useState<string | null>(null);
  if (!state || (state.status !== 'available' && state.status !== 'ready')) return null;
  // A version on offer starts downloading at once when the user chose so: nothing to ask yet.
  if (state.status === 'available' && state.canInstall && downloadsBySelf) return null;
  const key = `${state.status}:${state.version ?? ''}`;
  if (hidden === key) return null;
  const ready = state.status === 'ready';
  return (
    <section className="banner banner--info" aria-label={t('update.label')}>
      <Icon name="info" className="banner__icon" />
      <div className="banner__text">
        <p>
          {ready ? t('update.ready', { version: state.version ?? '' }) : offerText(state, platform)}
        </p>
        <ReleaseNotes state={state} />
      </div>
      {ready ? (
        <Button variant="primary" size="small" onClick={() => void restart()}>
          {t('update.restart')}
        </Button>
      ) : state.canInstall ? (
        <Button size="small" onClick={() => void download()}>
          {t('update.download')}
        </Button>
      ) : state.canOpenDownload ? (
        <Button size="small" onClick={() => void openDownload()}>
          {t('update.getVersion', { version: state.version ?? '' })}
        </Button>
      ) : null}
      <Button variant="ghost" size="small" onClick={() => setHidden(key)}>
        {t('update.later')}
      </Button>
    </section>
  );
}
