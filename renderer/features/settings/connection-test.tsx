/**
 * "Test connection", after the key field: it tests the service address as typed above (saved or
 * not) with the key being typed, or else with the stored key, and reports what the service
 * answered. Its report lasts only while the address and the key stay as they were tested (an
 * answer that arrives after a change is dropped).
 */
import { useEffect, useRef, useState } from 'react';
import { Button } from '../../components/button';
import { ErrorMessage } from '../../components/error-message';
import { Icon } from '../../components/icon';
import { Spinner } from '../../components/spinner';
import { errorText, t } from '../../i18n';
import { toApiError, type ApiError } from '../../lib/api';
import { useAppStore } from '../../store/app-store';
import type { ConnectionReport as Report } from '../../store/settings-slice';

function ConnectionReport({ report, error }: { report: Report | null; error: ApiError | null }) {
  if (error) return <ErrorMessage message={error.message} detail={error.detail} />;
  if (!report) return null;
  if (!report.ok) return <ErrorMessage message={errorText(report)} detail={report.detail} />;
  return (
    <p className="connection-ok">
      <Icon name="check" />
      <span>{errorText(report)}</span>
    </p>
  );
}

/** What the stored key is now: a report about another key (or none) is stale. */
function useKeyIdentity(): string {
  return useAppStore((state) => {
    const status = state.keyStatus;
    return status ? `${status.state}|${status.fingerprint ?? ''}|${status.baseUrl ?? ''}` : '';
  });
}

/** The address "Test connection" tests: as typed in Settings, else as saved. */
export function useTypedBaseUrl(): string {
  return useAppStore((state) => state.baseUrlDraft ?? state.settings?.baseUrl ?? '');
}

export function ConnectionTest({ keyText }: { keyText: string }) {
  const baseUrl = useTypedBaseUrl();
  const keyIdentity = useKeyIdentity();
  const testService = useAppStore((state) => state.serviceTest);
  const [testing, setTesting] = useState(false);
  const [report, setReport] = useState<Report | null>(null);
  const [testError, setTestError] = useState<ApiError | null>(null);
  const attempt = useRef(0);
  useEffect(() => {
    attempt.current += 1;
    setReport(null);
    setTestError(null);
    setTesting(false);
  }, [baseUrl, keyText, keyIdentity]);

  const test = async (): Promise<void> => {
    const mine = ++attempt.current;
    setTesting(true);
    setReport(null);
    setTestError(null);
    try {
      const answer = await testService(baseUrl, keyText);
      if (mine === attempt.current) setReport(answer);
    } catch (caught) {
      if (mine === attempt.current) setTestError(toApiError(caught));
    } finally {
      if (mine === attempt.current) setTesting(false);
    }
  };
  return (
    <>
      <div className="settings-actions">
        <Button icon="link" disabled={testing} onClick={() => void test()}>
          {t('settings.test.button')}
        </Button>
        {testing ? <Spinner label={t('settings.test.running')} /> : null}
      </div>
      <div className="connection-report" role="status">
        <ConnectionReport report={report} error={testError} />
      </div>
    </>
  );
}
