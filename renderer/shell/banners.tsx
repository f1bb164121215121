/**
 * The standing notices above every screen: demo service (which opens "Connect a service"),
 * offline, a key that needs attention. A notice about the compose form's service shows only
 * while that service is chosen: choosing another takes it away.
 */
import type { ReactNode } from 'react';
import { PROVIDER_IDS, demoStandsIn, type ProviderId } from '../../shared/domain/providers';
import { Button } from '../components/button';
import { Icon, type IconName } from '../components/icon';
import { IconButton } from '../components/icon-button';
import type { AppNotice } from '../../shared/ipc/contract';
import { errorText, t, type MessageKey } from '../i18n';
import { useAppStore } from '../store/app-store';
import { useKeyStorageWait } from '../store/use-service-key-state';
import { backendName } from '../lib/key-labels';
import { ConnectParts } from './lazy-parts';
import { UpdateBanner } from './update-banner';

const KEY_PROBLEMS = new Set(['backend_changed', 'decrypt_failed', 'unavailable']);

/** One standing notice: its icon and words, its actions, and its close button when it has one. */
function Banner(props: {
  tone: 'info' | 'warning';
  icon: IconName;
  label: string;
  text: ReactNode;
  dismiss?: { label: string; onDismiss: () => void };
  children?: ReactNode;
}) {
  const { dismiss } = props;
  return (
    <section className={`banner banner--${props.tone}`} aria-label={props.label}>
      <Icon name={props.icon} className="banner__icon" />
      <p className="banner__text">{props.text}</p>
      {props.children}
      {dismiss ? (
        <IconButton icon="close" size="small" label={dismiss.label} onClick={dismiss.onDismiss} />
      ) : null}
    </section>
  );
}

/** Settings, its key field of `provider` focused: where a key problem is mended. */
function useOpenKeySettings(): (provider: ProviderId) => void {
  const setView = useAppStore((state) => state.setView);
  const requestFocus = useAppStore((state) => state.requestFocus);
  return (provider) => {
    setView('settings');
    requestFocus(`key:${provider}`);
  };
}

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
    <Banner
      tone="info"
      icon="demo"
      label={t('banner.demo.label')}
      text={t('banner.demo.connectText')}
      dismiss={{ label: t('banner.demo.dismiss'), onDismiss: dismiss }}
    >
      <Button variant="primary" size="small" icon="link" onClick={() => connect(true)}>
        {t('settings.connect.open')}
      </Button>
    </Banner>
  );
}

function OfflineBanner() {
  const offline = useAppStore((state) => state.offline);
  if (!offline) return null;
  return (
    <Banner
      tone="warning"
      icon="offline"
      label={t('banner.offline.label')}
      text={t('banner.offline.text')}
    />
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
  const openKeySettings = useOpenKeySettings();
  // Settings shows the same sentence beside the key field.
  if (!provider || !status?.message || view === 'settings') return null;
  return (
    <Banner
      tone="warning"
      icon="warning"
      label={t('banner.key.label')}
      text={errorText({ message: status.message, sentence: status.messageSentence })}
    >
      <Button size="small" onClick={() => openKeySettings(provider)}>
        {t('banner.key.action')}
      </Button>
    </Banner>
  );
}

/**
 * A stored key waits for the OS's storage (a keychain prompt nobody has answered): the task
 * list, the gallery and exports wait with it, and this says why and where the prompt may be. It
 * goes by itself once the storage answers; an answer that the key cannot be read is
 * {@link KeyProblemBanner}'s.
 */
function KeyWaitBanner() {
  const backend = useKeyStorageWait();
  if (backend === null) return null;
  return (
    <Banner
      tone="info"
      icon="key"
      label={t('banner.keyWait.label')}
      text={t('banner.keyWait.text', { store: backendName(backend) })}
    />
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
  const openKeySettings = useOpenKeySettings();
  if (!refusal) return null;
  const toSettings = refusal.kind === 'auth' || refusal.kind === 'config';
  const count = refusal.count > 1 ? ` ${t('banner.refused.count', { count: refusal.count })}` : '';
  return (
    <Banner
      tone="warning"
      icon="warning"
      label={t('banner.refused.label')}
      text={`${t(`banner.refused.${refusal.kind}`)}${count}`}
      dismiss={{ label: t('banner.refused.dismiss'), onDismiss: dismiss }}
    >
      {toSettings ? (
        <Button size="small" onClick={() => openKeySettings(refusal.provider)}>
          {t('banner.refused.action')}
        </Button>
      ) : null}
    </Banner>
  );
}

const NOTICE_TEXT: Record<AppNotice, MessageKey> = {
  window_recovered: 'banner.notice.windowRecovered',
  notifications_failed: 'banner.notice.notificationsFailed',
  thumbnails_unavailable: 'banner.notice.thumbnailsUnavailable',
  newer_tasks_kept: 'banner.notice.newerTasksKept',
};

/** What main asked the page to say once (the window was reloaded after a crash). */
function NoticeBanners() {
  const notices = useAppStore((state) => state.notices);
  const dismiss = useAppStore((state) => state.dismissNotice);
  return (
    <>
      {notices.map((notice) => (
        <Banner
          key={notice}
          tone="warning"
          icon="warning"
          label={t('banner.notice.label')}
          text={t(NOTICE_TEXT[notice])}
          dismiss={{ label: t('banner.notice.dismiss'), onDismiss: () => dismiss(notice) }}
        />
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
        <KeyWaitBanner />
        <KeyProblemBanner />
        <DemoBanner />
      </div>
      <ConnectGate />
    </>
  );
}
