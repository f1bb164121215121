/**
 * "Test connection", after a service's key. For today's contract it tests the service address as
 * typed above (saved or not) with the key being typed, or else the stored key; for another
 * service, its saved address with its stored key, through that service's key probe, which creates
 * no task. It reports what the service answered. Its report lasts only while the address and the
 * key stay as they were tested (an answer that arrives after a change is dropped).
 */
import { useEffect, useRef, useState } from 'react';
import { DEFAULT_PROVIDER, PROVIDERS, type ProviderId } from '../../../shared/domain/providers';
import { typedAddress } from '../../../shared/domain/submit-target';
import { Button } from '../../components/button';
import { ErrorMessage } from '../../components/error-message';
import { Icon } from '../../components/icon';
import { Spinner } from '../../components/spinner';
import { errorText, formatDateTime, t } from '../../i18n';
import { formatCost } from '../../lib/cost-text';
import { toApiError, type ApiError } from '../../lib/api';
import { useAppStore } from '../../store/app-store';
import { keptText } from '../../store/use-form-draft';
import type { ConnectionReport as Report } from '../../store/settings-slice';

interface ReportProps {
  readonly report: Report | null;
  readonly error: ApiError | null;
  /**
   * What the answer told about the account beside a key that was taken: its balance and when it
   * was read (BFL's credits), or else what it said (Replicate's account).
   */
  readonly showDetail: boolean;
}

export function ConnectionReport({ report, error, showDetail }: ReportProps) {
  if (error) return <ErrorMessage message={error.message} detail={error.detail} />;
  if (!report) return null;
  if (!report.ok) return <ErrorMessage message={errorText(report)} detail={report.detail} />;
  return (
    <p className="connection-ok">
      <Icon name="check" />
      <span>{errorText(report)}</span>
      {showDetail && report.balance ? (
        <span className="muted">
          {t('costs.balance', {
            amount: formatCost(report.balance.micros, report.balance.unit),
            time: formatDateTime(report.balance.readAt),
          })}
        </span>
      ) : showDetail && report.detail ? (
        <span className="muted">{report.detail}</span>
      ) : null}
    </p>
  );
}

/** What a service's stored key is now: a report about another key (or none) is stale. */
function useKeyIdentity(provider: ProviderId): string {
  return useAppStore((state) => {
    const status = state.serviceKeys?.[provider];
    return status ? `${status.state}|${status.fingerprint ?? ''}|${status.baseUrl ?? ''}` : '';
  });
}

/** The address "Test connection" tests: as typed in Settings, else as saved. */
function useTypedBaseUrl(): string {
  return useAppStore((state) =>
    keptText(
      state.formDrafts['edit.baseUrl'],
      state.settings ? typedAddress(state.settings, DEFAULT_PROVIDER) : '',
    ),
  );
}

/** The saved address of another service: the user's own, else its provider's. */
function useSavedAddress(provider: ProviderId): string {
  return useAppStore((state) => {
    const fallback = PROVIDERS[provider].defaultBaseUrl ?? '';
    return state.settings === null ? fallback : typedAddress(state.settings, provider);
  });
}

/**
 * One test at a time; a change of address or key drops the report (and a late answer). Today's
 * contract is tested at `address` (as typed: main takes a key being entered only where it is
 * saved); another service at its saved address, `address` naming it only to drop a stale report.
 * `keyText`: the key being entered, tested instead of the stored one.
 */
export function useConnectionTest(provider: ProviderId, address: string, keyText: string) {
  const keyIdentity = useKeyIdentity(provider);
  const testContract = useAppStore((state) => state.serviceTest);
  const testService = useAppStore((state) => state.serviceKeyTest);
  const [testing, setTesting] = useState(false);
  const [report, setReport] = useState<Report | null>(null);
  const [testError, setTestError] = useState<ApiError | null>(null);
  const attempt = useRef(0);
  useEffect(() => {
    attempt.current += 1;
    setReport(null);
    setTestError(null);
    setTesting(false);
  }, [address, keyText, keyIdentity]);

  const test = async (): Promise<void> => {
    const mine = ++attempt.current;
    setTesting(true);
    setReport(null);
    setTestError(null);
    try {
      // A service with no address of its own is tested where the user is typing it, saved or not.
      const answer =
        PROVIDERS[provider].defaultBaseUrl === null
          ? await testContract(address, keyText)
          : await testService(provider, keyText);
      if (mine === attempt.current) setReport(answer);
    } catch (caught) {
      if (mine === attempt.current) setTestError(toApiError(caught));
    } finally {
      if (mine === attempt.current) setTesting(false);
    }
  };
  return { testing, report, testError, test };
}

export function ConnectionTest({
  keyText,
  provider = 'pictor',
}: {
  keyText: string;
  provider?: ProviderId;
}) {
  const typed = useTypedBaseUrl();
  const saved = useSavedAddress(provider);
  // A service without an address of its own is tested at the address being typed, unsaved.
  const typedHere = PROVIDERS[provider].defaultBaseUrl === null;
  const address = typedHere ? typed : saved;
  const { testing, report, testError, test } = useConnectionTest(provider, address, keyText);
  return (
    <>
      {typedHere ? null : <p className="muted">{t('settings.services.testHint', { address })}</p>}
      <div className="settings-actions">
        <Button icon="link" disabled={testing} onClick={() => void test()}>
          {t('settings.test.button')}
        </Button>
        {testing ? <Spinner label={t('settings.test.running')} /> : null}
      </div>
      <div className="connection-report" role="status">
        <ConnectionReport report={report} error={testError} showDetail={!typedHere} />
      </div>
    </>
  );
}
