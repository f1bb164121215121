/**
 * The Settings screen: its index (settings-index.tsx: Connect a service, each service's state,
 * the sections), then service and key, the other services, defaults for new prompts, costs,
 * gallery, appearance, library, about.
 */
import type { ReactNode } from 'react';
import { Button } from '../../components/button';
import { Spinner } from '../../components/spinner';
import { t, type MessageKey } from '../../i18n';
import { useAppStore } from '../../store/app-store';
import { CostsSection } from './costs-section';
import { DefaultsSection } from './defaults-section';
import { LanguageField } from './language-field';
import {
  GalleryFolder,
  NeverUploadToggle,
  NotificationsToggle,
  ThemeChoice,
  UpdatesChoice,
  WatchTimeout,
} from './general-section';
import { KeySection } from './key-section';
import { LocalServersField } from './local-servers-field';
import { ArchiveSection } from './archive-section';
import { ServiceSection } from './service-section';
import { ServicesSection } from './services-section';
import { ServiceStateBadge } from './service-state-badge';
import { SettingsIndex } from './settings-index';
import { serviceSectionId } from '../../lib/settings-sections';
import { useSettingSave, type SettingSaver } from './use-setting-save';
import type { Settings } from '../../../shared/domain/settings';
import { serviceLabel } from '../../lib/service-label';
import './settings.css';

interface SectionProps {
  /** Where the index jumps to (the section takes the focus). */
  id?: string;
  /** The heading: a catalogue message, or a name already shown as the user gave it. */
  title: MessageKey | { readonly name: string };
  description?: MessageKey;
  /** Beside the title: a service's state. */
  badge?: ReactNode;
  children: ReactNode;
}

function Section({ id, title, description, badge, children }: SectionProps) {
  const heading = typeof title === 'string' ? t(title) : title.name;
  return (
    <section className="settings-section" aria-label={heading} id={id} tabIndex={-1}>
      <div className="settings-section__heading">
        <h2 dir="auto">{heading}</h2>
        {badge}
        {description ? <p className="muted">{t(description)}</p> : null}
      </div>
      <div className="settings-section__body">{children}</div>
    </section>
  );
}

function About() {
  const info = useAppStore((state) => state.appInfo);
  const openLogs = useAppStore((state) => state.openLogs);
  return (
    <div className="settings-actions">
      <span className="muted">
        {info ? t('settings.about.version', { version: info.version }) : ''}
      </span>
      <Button onClick={() => void openLogs()}>{t('settings.about.logs')}</Button>
    </div>
  );
}

/** The services: today's contract (address, then key), then the others. */
function ServiceSections({ saver, active }: { saver: SettingSaver; active: boolean }) {
  // The user's own service by the name they gave it: re-read when it changes.
  useAppStore((state) => state.settings?.serviceName);
  return (
    <>
      <Section
        id={serviceSectionId('pictor')}
        title={{ name: serviceLabel('pictor') }}
        description="settings.service.description"
        badge={<ServiceStateBadge provider="pictor" />}
      >
        <ServiceSection saver={saver} active={active} />
      </Section>
      <Section title="settings.key.title" description="settings.key.description">
        <KeySection active={active} />
      </Section>
      <Section title="settings.services.title" description="settings.services.description">
        <ServicesSection saver={saver} active={active} />
      </Section>
    </>
  );
}

function OtherSections({ settings, saver }: { settings: Settings; saver: SettingSaver }) {
  const active = useAppStore((state) => state.view === 'settings');
  return (
    <>
      <Section
        id="settings-defaults"
        title="settings.defaults.title"
        description="settings.defaults.description"
      >
        <DefaultsSection settings={settings} saver={saver} />
      </Section>
      <Section
        id="settings-costs"
        title="costs.settings.title"
        description="costs.settings.pricesHint"
      >
        <CostsSection active={active} />
      </Section>
      <Section id="settings-gallery" title="settings.gallery.title">
        <GalleryFolder settings={settings} />
      </Section>
      <Section id="settings-behaviour" title="settings.behaviour.title">
        <WatchTimeout settings={settings} saver={saver} />
        <NotificationsToggle settings={settings} saver={saver} />
        <NeverUploadToggle settings={settings} saver={saver} />
        <LocalServersField settings={settings} saver={saver} />
        <ThemeChoice settings={settings} saver={saver} />
        <LanguageField settings={settings} saver={saver} />
      </Section>
      <Section
        id="settings-library"
        title="settings.archive.title"
        description="settings.archive.description"
      >
        <ArchiveSection />
      </Section>
      <Section id="settings-about" title="settings.about.title">
        <About />
        <UpdatesChoice settings={settings} saver={saver} />
      </Section>
    </>
  );
}

export function SettingsView() {
  const settings = useAppStore((state) => state.settings);
  const active = useAppStore((state) => state.view === 'settings');
  const saver = useSettingSave();
  return (
    <div className="settings-view">
      <div className="settings-view__inner">
        <h1>{t('settings.title')}</h1>
        {!settings ? (
          <Spinner size="large" label={t('settings.loading')} />
        ) : (
          <div className="settings-view__layout">
            <SettingsIndex />
            <div className="settings-view__sections">
              <ServiceSections saver={saver} active={active} />
              <OtherSections settings={settings} saver={saver} />
            </div>
          </div>
        )}
      </div>
    </div>
  );
}
