/**
 * What the user calls their own service: saved on its own, shown wherever the window names that
 * service (lib/service-label.ts). Left empty (or cleared), the service is named by its address's
 * host, which the empty field shows as its placeholder.
 */
import { Button } from '../../components/button';
import { Field } from '../../components/field';
import { t } from '../../i18n';
import { defaultServiceName } from '../../lib/service-label';
import { SERVICE_NAME_MAX_CHARS } from '../../../shared/domain/service-name';
import { useAppStore } from '../../store/app-store';
import { useKeptEdit } from '../../store/use-form-draft';
import type { SettingSaver } from './use-setting-save';

export function ServiceNameField({ saver }: { saver: SettingSaver }) {
  const saved = useAppStore((state) => state.settings?.serviceName ?? '');
  const byAddress = useAppStore((state) => defaultServiceName(state.settings));
  const [text, setText] = useKeptEdit('serviceName', saved);
  const changed = text.trim() !== saved;
  return (
    <form
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void saver.save('serviceName', { serviceName: text.trim() });
      }}
    >
      <Field
        label={t('settings.serviceName.label')}
        hint={t('settings.serviceName.hint')}
        error={saver.errorOf('serviceName')}
      >
        {(control) => (
          <div className="inline-controls">
            <input
              {...control}
              className="input"
              dir="auto"
              autoComplete="off"
              maxLength={SERVICE_NAME_MAX_CHARS}
              value={text}
              placeholder={byAddress === '' ? t('service.pictor') : byAddress}
              onChange={(event) => {
                setText(event.target.value);
                saver.clearError('serviceName');
              }}
            />
            <Button type="submit" variant="primary" disabled={!changed}>
              {t('settings.serviceName.save')}
            </Button>
          </div>
        )}
      </Field>
    </form>
  );
}
