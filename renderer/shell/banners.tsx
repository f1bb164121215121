/**
 * The standing notices above every screen: demo service (which opens "Connect a service"),
 * offline, a key that needs attention. A notice about the compose form's service shows only
 * while that service is chosen: choosing another takes it away.
 */
import { PROVIDER_IDS, demoStandsIn } from '../../shared/domain/providers';
import { Button } from '../components/button';
import { Icon } from '../components/icon';
import { IconButton } from '../components/icon-button';
import type { AppNotice } from '../../shared/ipc/contract';
import { errorText, t, type MessageKey } from '../i18n';
import { useAppStore } from '../store/app-store';
import { ConnectParts } from './lazy-parts';
import { UpdateBanner } from './update-banner';

const KEY_PROBLEMS = new Set(['backend_changed', 'decrypt_failed', 'unavailable']);

/** First run: tasks go to the built-in demo; one button opens "Connect a service". */
function DemoBanner() {
  // Only while the demo stands in for the compose form's service: another's never go to the demo.
  const show = useAppStore(
    (state) =>
      state.demo && !state.demoBannerDismissed && demoStandsIn(state.composeDraft.provider),
  );
  const dismiss = useAppStore((state) => state.dismissDemoBanner);
  const connect = useAppStore((state) => state.connectShow);
  if (!show) return null;
  return (
    <section className="banner banner--info" aria-label={t('banner.demo.label')}>
      <Icon name="demo" className="banner__icon" />
      <p className="banner__text">{t('banner.demo.connectText')}</p>
      <Button variant="primary" size="small" icon="link" onClick={() => connect(true)}>
        {t('settings.connect.open')}
      </Button>
      <IconButton icon="close" size="small" label={t('banner.demo.dismiss')} onClick={dismiss} />
    </section>
  );
}

function OfflineBanner() {
  const offline = useAppStore((state) => state.offline);
  if (!offline) return null;
  return (
    <section className="banner banner--warning" aria-label={t('banner.offline.label')}>
      <Icon name="offline" className="banner__icon" />
      <p className="banner__text">{t('banner.offline.text')}</p>
    </section>
  );
}

function KeyProblemBanner() {
  // The first service whose stored key cannot be used now, and says why.
  const provider = useAppStore((state) =>
    PROVIDER_IDS.find((id) => {
      const key = state.serviceKeys?.[id];
      return key !== undefined && KEY_PROBLEMS.has(key.state) && Boolean(key.message);
    }),
  );
  const status = useAppStore((state) => (provider ? state.serviceKeys?.[provider] : undefined));
  const view = useAppStore((state) => state.view);
  const setView = useAppStore((state) => state.setView);
  const requestFocus = useAppStore((state) => state.requestFocus);
  // Settings shows the same sentence beside the key field.
  if (!provider || !status?.message || view === 'settings') return null;
  return (
    <section className="banner banner--warning" aria-label={t('banner.key.label')}>
      <Icon name="warning" className="banner__icon" />
      <p className="banner__text">
        {errorText({ message: status.message, sentence: status.messageSentence })}
      </p>
      <Button
        size="small"
        onClick={() => {
          setView('settings');
          requestFocus(`key:${provider}`);
        }}
      >
        {t('banner.key.action')}
      </Button>
    </section>
  );
}

/**
 * Submits refused for the account (key refused, no credits, service unreachable): one banner,
 * however many attempts, instead of a history row each; the typed request is back in the form.
 */
function RefusedSubmitBanner() {
  // About the service it was refused by: gone when the form's service changes.
  const refusal = useAppStore((state) =>
    state.composeRefusal?.provider === state.composeDraft.provider ? state.composeRefusal : null,
  );
  const dismiss = useAppStore((state) => state.composeDismissRefusal);
  const setView = useAppStore((state) => state.setView);
  const requestFocus = useAppStore((state) => state.requestFocus);
  if (!refusal) return null;
  const toSettings = refusal.kind === 'auth' || refusal.kind === 'config';
  return (
    <section className="banner banner--warning" aria-label={t('banner.refused.label')}>
      <Icon name="warning" className="banner__icon" />
      <p className="banner__text">
        {t(`banner.refused.${refusal.kind}`)}
        {refusal.count > 1 ? ` ${t('banner.refused.count', { count: refusal.count })}` : ''}
      </p>
      {toSettings ? (
        <Button
          size="small"
          onClick={() => {
            setView('settings');
            requestFocus(`key:${refusal.provider}`);
          }}
        >
          {t('banner.refused.action')}
        </Button>
      ) : null}
      <IconButton icon="close" size="small" label={t('banner.refused.dismiss')} onClick={dismiss} />
    </section>
  );
}

const NOTICE_TEXT: Record<AppNotice, MessageKey> = {
  window_recovered: 'banner.notice.windowRecovered',
  notifications_failed: 'banner.notice.notificationsFailed',
  thumbnails_unavailable: 'banner.notice.thumbnailsUnavailable',
};

/** What main asked the page to say once (the window was reloaded after a crash). */
function NoticeBanners() {
  const notices = useAppStore((state) => state.notices);
  const dismiss = useAppStore((state) => state.dismissNotice);
  return (
    <>
      {notices.map((notice) => (
        <section
          key={notice}
          className="banner banner--warning"
          aria-label={t('banner.notice.label')}
        >
          <Icon name="warning" className="banner__icon" />
          <p className="banner__text">{t(NOTICE_TEXT[notice])}</p>
          <IconButton
            icon="close"
            size="small"
            label={t('banner.notice.dismiss')}
            onClick={() => dismiss(notice)}
          />
        </section>
      ))}
    </>
  );
}

/** The connect panel (Settings' own form for a service), loaded the first time it opens. */
function ConnectGate() {
  const open = useAppStore((state) => state.connectOpen);
  return open ? <ConnectParts.Part /> : null;
}

export function Banners() {
  return (
    <>
      <div className="banners">
        <NoticeBanners />
        <UpdateBanner />
        <OfflineBanner />
        <RefusedSubmitBanner />
        <KeyProblemBanner />
        <DemoBanner />
      </div>
      <ConnectGate />
    </>
  );
}
