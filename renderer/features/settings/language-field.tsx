/**
 * The language choice: "System language" (the default) or one of Pictor's locales, each named in
 * its own language. A change applies at once, without a restart (see `useAppliedLanguage`).
 */
import type { Settings } from '../../../shared/domain/settings';
import { LOCALES, PSEUDO_LOCALE } from '../../../shared/domain/locales';
import { Field } from '../../components/field';
import { t } from '../../i18n';
import { fieldProblem } from './field-error';
import type { SettingSaver } from './use-setting-save';

export function LanguageField({ settings, saver }: { settings: Settings; saver: SettingSaver }) {
  return (
    <Field
      label={t('settings.language.label')}
      hint={t('settings.language.hint')}
      error={fieldProblem(undefined, saver.errorOf('language'))}
    >
      {(control) => (
        <select
          {...control}
          className="input settings-narrow"
          value={settings.language}
          onChange={(event) => void saver.save('language', { language: event.target.value })}
        >
          <option value="system">{t('settings.language.system')}</option>
          {LOCALES.map((info) => (
            <option
              key={info.tag}
              value={info.tag}
              lang={info.tag === PSEUDO_LOCALE ? 'en' : info.tag}
            >
              {info.name}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}
