/** The service's base URL and "Test connection", which reports what the service answered. */
import { useEffect, useId, useRef, useState } from 'react';
import type { RequestOutput } from '../../../shared/ipc/contract';
import { Button, ErrorMessage, Icon, Spinner } from '../../components';
import { t } from '../../i18n';
import { call, toApiError, type ApiError } from '../../lib/api';
import { useAppStore } from '../../store';
import { useFocusRequest } from '../shell/use-focus-request';
import { FieldError } from './field-error';
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
  const ids = { url: useId(), hint: useId(), error: useId() };
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
        className="field"
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void saver.save('baseUrl', { baseUrl: text.trim() });
        }}
      >
        <label className="field__label" htmlFor={ids.url}>
          {t('settings.baseUrl.label')}
        </label>
        <div className="inline-controls">
          <input
            id={ids.url}
            ref={input}
            className="input mono"
            type="url"
            inputMode="url"
            value={text}
            spellCheck={false}
            autoComplete="off"
            placeholder={t('settings.baseUrl.placeholder')}
            aria-invalid={error ? true : undefined}
            aria-describedby={error ? `${ids.hint} ${ids.error}` : ids.hint}
            onChange={(event) => {
              setText(event.target.value);
              saver.clearError('baseUrl');
            }}
          />
          <Button type="submit" variant="primary" disabled={!changed}>
            {t('common.save')}
          </Button>
        </div>
        <p className="field__hint" id={ids.hint}>
          {t(demo ? 'settings.baseUrl.hintDemo' : 'settings.baseUrl.hint')}
        </p>
        <FieldError id={ids.error} error={error} />
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
