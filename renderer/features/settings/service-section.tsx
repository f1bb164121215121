/** The service's base URL and "Test connection", which reports what the service answered. */
import { useEffect, useRef, useState } from 'react';
import type { RequestOutput } from '../../../shared/ipc/contract';
import { Button } from '../../components/button';
import { ErrorMessage } from '../../components/error-message';
import { Field } from '../../components/field';
import { Icon } from '../../components/icon';
import { Spinner } from '../../components/spinner';
import { errorText, t } from '../../i18n';
import { call, toApiError, type ApiError } from '../../lib/api';
import { useAppStore } from '../../store/app-store';
import { USERS_CHOICE_SENTENCES } from '../../../shared/i18n/errors/settings';
import { useFocusRequest } from '../shell/use-focus-request';
import type { SettingSaver } from './use-setting-save';

type Report = RequestOutput<'service:testConnection'>;

/**
 * A refusal that is the user's own answer (they cancelled main's question whether to send the
 * key to the new address): said plainly beside the field, not as an error.
 */
function isUsersChoice(error: ApiError | null): boolean {
  return error?.sentenceKey !== undefined && USERS_CHOICE_SENTENCES.has(error.sentenceKey);
}

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

/** What the key is now: a report about another key (or none) is stale. */
function useKeyIdentity(): string {
  return useAppStore((state) => {
    const status = state.keyStatus;
    return status ? `${status.state}|${status.fingerprint ?? ''}|${status.baseUrl ?? ''}` : '';
  });
}

/**
 * "Test connection" of the address in the field: its report lasts only while the address and the
 * key stay as they were tested (an answer that arrives after a change is dropped).
 */
function useConnectionTest(text: string) {
  const keyIdentity = useKeyIdentity();
  const [testing, setTesting] = useState(false);
  const [report, setReport] = useState<Report | null>(null);
  const [testError, setTestError] = useState<ApiError | null>(null);
  const attempt = useRef(0);
  useEffect(() => {
    attempt.current += 1;
    setReport(null);
    setTestError(null);
    setTesting(false);
  }, [text, keyIdentity]);

  const test = async (): Promise<void> => {
    const mine = ++attempt.current;
    setTesting(true);
    setReport(null);
    setTestError(null);
    try {
      const answer = await call('service:testConnection', { baseUrl: text.trim() });
      if (mine === attempt.current) setReport(answer);
    } catch (caught) {
      if (mine === attempt.current) setTestError(toApiError(caught));
    } finally {
      if (mine === attempt.current) setTesting(false);
    }
  };
  return { test, testing, report, testError };
}

export function ServiceSection({ saver, active }: { saver: SettingSaver; active: boolean }) {
  const saved = useAppStore((state) => state.settings?.baseUrl ?? '');
  const demo = useAppStore((state) => state.demo);
  const [text, setText] = useState(saved);
  const { test, testing, report, testError } = useConnectionTest(text);
  const input = useRef<HTMLInputElement>(null);
  useFocusRequest('baseUrl', input, active);
  useEffect(() => setText(saved), [saved]);
  const refusal = saver.errorOf('baseUrl');
  const declined = isUsersChoice(refusal);
  const error = declined ? null : refusal;
  const changed = text.trim() !== saved;

  const save = async (): Promise<void> => {
    // The field shows the address as saved (normalised), even when that equals the one before.
    if (await saver.save('baseUrl', { baseUrl: text.trim() })) {
      setText(useAppStore.getState().settings?.baseUrl ?? '');
    }
  };

  return (
    <div className="service-section">
      <form
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void save();
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
        {declined && refusal ? (
          <p className="message message--info" role="status">
            <Icon name="info" className="message__icon" />
            <span className="message__body message__text">{refusal.text()}</span>
          </p>
        ) : null}
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
