/** The Settings screen: service and key, defaults for new prompts, gallery, appearance, about. */
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
  NotificationsToggle,
  ThemeChoice,
  UpdatesChoice,
  WatchTimeout,
} from './general-section';
import { KeySection } from './key-section';
import { LibrarySection } from './library-section';
import { ServiceSection } from './service-section';
import { ServicesSection } from './services-section';
import { useSettingSave } from './use-setting-save';
import './settings.css';

function Section({
  title,
  description,
  children,
}: {
  title: MessageKey;
  description?: MessageKey;
  children: ReactNode;
}) {
  return (
    <section className="settings-section" aria-label={t(title)}>
      <div className="settings-section__heading">
        <h2>{t(title)}</h2>
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
          <>
            <Section title="service.pictor" description="settings.service.description">
              <ServiceSection saver={saver} active={active} />
            </Section>
            <Section title="settings.key.title" description="settings.key.description">
              <KeySection active={active} />
            </Section>
            <Section title="settings.services.title" description="settings.services.description">
              <ServicesSection saver={saver} />
            </Section>
            <Section title="settings.defaults.title" description="settings.defaults.description">
              <DefaultsSection settings={settings} saver={saver} />
            </Section>
            <Section title="costs.settings.title" description="costs.settings.pricesHint">
              <CostsSection active={active} />
            </Section>
            <Section title="settings.gallery.title">
              <GalleryFolder settings={settings} />
            </Section>
            <Section title="settings.behaviour.title">
              <WatchTimeout settings={settings} saver={saver} />
              <NotificationsToggle settings={settings} saver={saver} />
              <ThemeChoice settings={settings} saver={saver} />
              <LanguageField settings={settings} saver={saver} />
            </Section>
            <Section title="settings.library.title" description="settings.library.description">
              <LibrarySection />
            </Section>
            <Section title="settings.about.title">
              <About />
              <UpdatesChoice settings={settings} saver={saver} />
            </Section>
          </>
        )}
      </div>
    </div>
  );
}
