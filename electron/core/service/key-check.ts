/**
 * What a profile's key probe found, as "Test connection" reports it (ServiceClient.probeKey): the
 * detail cleaned and never the key, and the account's balance only when it is a value Pictor
 * keeps (checked as a reported cost is: a negative, NaN-like or huge amount is dropped).
 */
import { checkReportedCost, type CostUnit } from '../../../shared/domain/task-cost';
import { cleanText } from '../../../shared/service/wire';
import type { KeyProbeReading } from './providers/provider-profile';
import { redactText } from './request-guard';

export interface KeyCheck extends Omit<KeyProbeReading, 'balance'> {
  /** The answer's HTTP status. */
  readonly status: number;
  /** What the account has left, when the answer said it in a value Pictor keeps. */
  readonly balance?: { readonly micros: number; readonly unit: CostUnit };
}

export function keyCheckOf(read: KeyProbeReading, status: number, key: string): KeyCheck {
  const detail = read.detail && redactText(cleanText(read.detail), key);
  const balance = read.balance ? checkReportedCost(read.balance) : undefined;
  return {
    accepted: read.accepted,
    status,
    ...(detail ? { detail } : {}),
    ...(balance?.ok ? { balance: { micros: balance.cost.micros, unit: balance.cost.unit } } : {}),
  };
}
