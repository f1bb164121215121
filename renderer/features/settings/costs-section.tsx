/**
 * Settings › Costs: prices and spending caps, read again each time Settings is shown and, while
 * it is, as tasks report costs (each cap's "spent so far"). The place "Prices and caps" links
 * lead to (the compose form's cap forecast, the Costs screen): it takes the focus they ask for.
 */
import { useEffect, useRef } from 'react';
import { t } from '../../i18n';
import { useAppStore } from '../../store/app-store';
import { useFocusRequest } from '../../store/use-focus-request';
import { CapsForm } from './caps-form';
import { PricesForm } from './prices-form';

/** How long Settings waits after a cost was reported before reading the caps' spending again. */
const SETTLE_MS = 1_000;

export function CostsSection({ active }: { active: boolean }) {
  const load = useAppStore((state) => state.costsLoadSettings);
  const ledgerTick = useAppStore((state) => state.costsLedgerTick);
  const anchor = useRef<HTMLDivElement>(null);
  useFocusRequest('costs', anchor, active);
  useEffect(() => {
    if (active) void load();
  }, [active, load]);
  const seen = useRef(ledgerTick);
  useEffect(() => {
    if (!active || seen.current === ledgerTick) return undefined;
    seen.current = ledgerTick;
    const timer = setTimeout(() => void load(), SETTLE_MS);
    return () => clearTimeout(timer);
  }, [active, ledgerTick, load]);
  return (
    <div ref={anchor} tabIndex={-1} role="group" aria-label={t('costs.pricesAndCaps')}>
      <PricesForm active={active} />
      <CapsForm />
    </div>
  );
}
