/** Settings › Costs: prices and spending caps, read again each time Settings is shown. */
import { useEffect } from 'react';
import { useAppStore } from '../../store/app-store';
import { CapsForm } from './caps-form';
import { PricesForm } from './prices-form';

export function CostsSection({ active }: { active: boolean }) {
  const load = useAppStore((state) => state.costsLoadSettings);
  useEffect(() => {
    if (active) void load();
  }, [active, load]);
  return (
    <>
      <PricesForm />
      <CapsForm />
    </>
  );
}
