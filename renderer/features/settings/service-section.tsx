/** The service's base URL and "Test connection", which reports what the service answered. */
import { useEffect, useRef, useState } from 'react';
import type { RequestOutput } from '../../../shared/ipc/contract';
import { Button } from '../../components/button';
import { ErrorMessage } from '../../components/error-message';
import { Field } from '../../components/field';
import { Icon } from '../../components/icon';
import { Spinner } from '../../components/spinner';
import { t } from '../../i18n';
import { call, toApiError, type ApiError } from '../../lib/api';
import { useAppStore } from '../../store/app-store';
import { useFocusRequest } from '../shell/use-focus-request';
import type { SettingSaver } from './use-setting-save';

type Report = RequestOutput<'service:testConnection'>;

function ConnectionReport({ report, error }: { report: Report | null; error: ApiError | null }) {
  if (error) return <ErrorMessage message={error.message} detail={error.detail} />;
  if (!report) return null;
  if (!report.ok) return <ErrorMessage message={report.message} detail={report.detail} />;
  return (
    <p className="connection-ok">
      <Icon name="check" />
      <span>{report.message}</span>
    </p>
  );
}

export function ServiceSection({ saver, active }: { saver: SettingSaver; active: boolean }) {
  const saved = useAppStore((state) => state.settings?.baseUrl ?? '');
  const demo = useAppStore((state) => state.demo);
  const [text, setText] = useState(saved);
  const [testing, setTesting] = useState(false);
  const [report, setReport] = useState<Report | null>(null);
  const [testError, setTestError] = useState<ApiError | null>(null);
  const input = useRef<HTMLInputElement>(null);
  useFocusRequest('baseUrl', input, active);
  useEffect(() => setText(saved), [saved]);
  const error = saver.errorOf('baseUrl');
  const changed = text.trim() !== saved;

  const test = async (): Promise<void> => {
    setTesting(true);
    setReport(null);
    setTestError(null);
    try {
      setReport(await call('service:testConnection'));
    } catch (caught) {
      setTestError(toApiError(caught));
    } finally {
      setTesting(false);
    }
  };

  return (
    <div className="service-section">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void saver.save('baseUrl', { baseUrl: text.trim() });
        }}
      >
        <Field
          label={t('settings.baseUrl.label')}
          hint={t(demo ? 'settings.baseUrl.hintDemo' : 'settings.baseUrl.hint')}
          error={error}
        >
          {(control) => (
            <div className="inline-controls">
              <input
                {...control}
                ref={input}
                className="input mono"
                type="url"
                inputMode="url"
                value={text}
                spellCheck={false}
                autoComplete="off"
                placeholder={t('settings.baseUrl.placeholder')}
                onChange={(event) => {
                  setText(event.target.value);
                  saver.clearError('baseUrl');
                }}
              />
              <Button type="submit" variant="primary" disabled={!changed}>
                {t('common.save')}
              </Button>
            </div>
          )}
        </Field>
      </form>
      <div className="settings-actions">
        <Button icon="link" disabled={testing} onClick={() => void test()}>
          {t('settings.test.button')}
        </Button>
        {testing ? <Spinner label={t('settings.test.running')} /> : null}
      </div>
      <div className="connection-report" role="status">
        <ConnectionReport report={report} error={testError} />
      </div>
    </div>
  );
}
