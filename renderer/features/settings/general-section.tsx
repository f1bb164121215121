/** Gallery folder, notifications, theme and the watch timeout. */
import { useEffect, useId, useState } from 'react';
import { THEMES, type Settings } from '../../../shared/domain/settings';
import { Button } from '../../components/button';
import { Field } from '../../components/field';
import { RadioGroup } from '../../components/radio-group';
import { t, type MessageKey } from '../../i18n';
import { MAX_WATCH_MINUTES } from '../../../shared/domain/limits';
import { checkWatchMinutes } from '../../lib/request-validation';
import { useAppStore } from '../../store/app-store';
import { fieldProblem } from './field-error';
import { GalleryFolderFlow, GalleryFolderReport } from './gallery-folder-flow';
import { updatePlatform, type UpdatePlatform } from '../../lib/platform';
import { CANNOT_INSTALL_HINT, updateSentence } from '../../lib/update-text';
import { UPDATE_MODES, type UpdateState } from '../../../shared/domain/update-state';
import type { SettingSaver } from './use-setting-save';

const UPDATE_MODE_LABELS: Record<Settings['updateMode'], MessageKey> = {
  download: 'settings.updates.download',
  notify: 'settings.updates.notify',
};

const THEME_LABELS: Record<Settings['theme'], MessageKey> = {
  system: 'settings.theme.system',
  light: 'settings.theme.light',
  dark: 'settings.theme.dark',
};

export function GalleryFolder({ settings }: { settings: Settings }) {
  const errorId = useId();
  const fallback = useAppStore((state) => state.appInfo?.galleryDir ?? '');
  const openFolder = useAppStore((state) => state.openGalleryFolder);
  // The main process shows its own folder dialog; the page asks what to do with the folder it
  // returned (gallery-folder-flow.tsx) and never names a path. The new folder arrives with
  // `settings:changed`.
  const change = useAppStore((state) => state.folderPick);
  return (
    <div className="field">
      <span className="field__label">{t('settings.gallery.label')}</span>
      <p className="folder-path mono">
        {settings.galleryDir || fallback || t('settings.gallery.default')}
      </p>
      <div className="settings-actions">
        <Button icon="folder" onClick={() => void change()}>
          {t('settings.gallery.change')}
        </Button>
        <Button onClick={() => void openFolder()}>{t('settings.gallery.open')}</Button>
      </div>
      <p className="field__hint">{t('settings.gallery.hint')}</p>
      <GalleryFolderReport errorId={errorId} />
      <GalleryFolderFlow />
    </div>
  );
}

export function ThemeChoice({ settings, saver }: { settings: Settings; saver: SettingSaver }) {
  return (
    <RadioGroup
      label={t('settings.theme.label')}
      value={settings.theme}
      options={THEMES.map((theme) => ({ value: theme, label: t(THEME_LABELS[theme]) }))}
      onChange={(theme) => void saver.save('theme', { theme })}
    />
  );
}

/** A setting that is on or off: its checkbox, label and hint. */
function SettingCheckbox(props: {
  checked: boolean;
  label: string;
  hint: string;
  onChange(checked: boolean): void;
}) {
  const hint = useId();
  return (
    <div className="field">
      <label className="checkbox">
        <input
          type="checkbox"
          checked={props.checked}
          aria-describedby={hint}
          onChange={(event) => props.onChange(event.target.checked)}
        />
        {props.label}
      </label>
      <p className="field__hint" id={hint}>
        {props.hint}
      </p>
    </div>
  );
}

/** A setting that is on or off, saved as soon as it changes. */
function SettingToggle(props: {
  settings: Settings;
  saver: SettingSaver;
  field: 'notifications' | 'neverUploadInputs';
  label: MessageKey;
  hint: MessageKey;
}) {
  const { settings, saver, field } = props;
  return (
    <SettingCheckbox
      checked={settings[field]}
      label={t(props.label)}
      hint={t(props.hint)}
      onChange={(on) => void saver.save(field, { [field]: on })}
    />
  );
}

export function NotificationsToggle(props: { settings: Settings; saver: SettingSaver }) {
  return (
    <SettingToggle
      {...props}
      field="notifications"
      label="settings.notifications.label"
      hint="settings.notifications.hint"
    />
  );
}

/** "Never upload inputs": images given to a model go only inside the request. */
export function NeverUploadToggle(props: { settings: Settings; saver: SettingSaver }) {
  return (
    <SettingToggle
      {...props}
      field="neverUploadInputs"
      label="edit.neverUpload"
      hint="edit.neverUploadHint"
    />
  );
}

export function WatchTimeout({ settings, saver }: { settings: Settings; saver: SettingSaver }) {
  const [text, setText] = useState(String(settings.watchTimeoutMinutes));
  useEffect(() => setText(String(settings.watchTimeoutMinutes)), [settings.watchTimeoutMinutes]);
  const checked = checkWatchMinutes(text);
  const commit = (): void => {
    if (checked.ok && checked.value !== settings.watchTimeoutMinutes) {
      void saver.save('watchTimeoutMinutes', { watchTimeoutMinutes: checked.value });
    }
  };
  return (
    <Field
      label={t('settings.watch.label')}
      hint={
        checked.ok && checked.value === 0 ? t('settings.watch.never') : t('settings.watch.hint')
      }
      error={fieldProblem(
        checked.ok ? undefined : checked.reason,
        saver.errorOf('watchTimeoutMinutes'),
      )}
    >
      {(control) => (
        <input
          {...control}
          className="input settings-narrow"
          type="number"
          min={0}
          max={MAX_WATCH_MINUTES}
          value={text}
          onChange={(event) => {
            setText(event.target.value);
            saver.clearError('watchTimeoutMinutes');
          }}
          onBlur={commit}
          onKeyDown={(event) => {
            if (event.key === 'Enter') commit();
          }}
        />
      )}
    </Field>
  );
}

/**
 * The update mode, offered only where it does something: a copy that cannot install (a Linux
 * package, an unsigned build, one not installed from a release, a development copy) downloads
 * nothing whichever is chosen (main's update-service.ts), and a checked "Download updates
 * automatically" there would name what does not happen.
 */
function UpdateMode({ settings, saver, hint }: UpdateModeProps) {
  const choosable = useAppStore((store) => store.updates?.canInstall === true);
  if (!choosable) return <span className="field__label">{t('settings.updates.label')}</span>;
  return (
    <RadioGroup
      label={t('settings.updates.label')}
      value={settings.updateMode}
      options={UPDATE_MODES.map((mode) => ({ value: mode, label: t(UPDATE_MODE_LABELS[mode]) }))}
      onChange={(mode) => void saver.save('updateMode', { updateMode: mode })}
      describedBy={hint}
    />
  );
}

interface UpdateModeProps {
  readonly settings: Settings;
  readonly saver: SettingSaver;
  readonly hint: string;
}

/** What the copy does about updates: nothing said until main answers, nor where it has none. */
function updateHint(state: UpdateState | null, platform: UpdatePlatform): MessageKey | null {
  if (!state || state.status === 'unavailable') return null;
  return state.canInstall ? 'settings.updates.hint' : CANNOT_INSTALL_HINT[platform];
}

/**
 * Updates: the mode, the state now, and "Check now". Where this copy cannot update (development,
 * not installed from a release) the status line alone says so: a hint that it "checks when it
 * starts and once a day" would say otherwise.
 */
export function UpdatesChoice({ settings, saver }: { settings: Settings; saver: SettingSaver }) {
  const hint = useId();
  const state = useAppStore((store) => store.updates);
  const check = useAppStore((store) => store.updatesCheck);
  const openDownload = useAppStore((store) => store.updatesOpenDownload);
  const platform = useAppStore((store) => updatePlatform(store.appInfo?.platform));
  const hintKey = updateHint(state, platform);
  const busy = !state || ['unavailable', 'checking', 'downloading', 'ready'].includes(state.status);
  return (
    <div className="field">
      <UpdateMode settings={settings} saver={saver} hint={hint} />
      {hintKey ? (
        <p className="field__hint" id={hint}>
          {t(hintKey)}
        </p>
      ) : null}
      <div className="settings-actions">
        <Button disabled={busy} onClick={() => void check()}>
          {t('settings.updates.check')}
        </Button>
        <span className="muted" role="status">
          {state ? updateSentence(state, platform) : ''}
        </span>
        {state?.status === 'available' && state.canOpenDownload ? (
          <Button onClick={() => void openDownload()}>
            {t('update.getVersion', { version: state.version ?? '' })}
          </Button>
        ) : null}
      </div>
    </div>
  );
}
