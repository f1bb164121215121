/**
 * The caps' verdict on new tasks of several services at once (a compare): a cap of one service
 * counts that service's new tasks only, a cap of every service counts them all. One service's
 * tasks are checked as they always were.
 */
import type { SpendingCap } from '../../../shared/domain/cost-ledger';
import type { ProviderId } from '../../../shared/domain/providers';
import type { CapVerdict } from './cap-check';

/** `verdictOf(tasks, caps)`: checkCaps over those tasks and those caps. */
export function verdictByService<T extends { readonly provider: ProviderId }>(
  tasks: readonly T[],
  caps: readonly SpendingCap[],
  verdictOf: (tasks: readonly T[], caps: readonly SpendingCap[]) => CapVerdict,
): CapVerdict {
  const services = [...new Set(tasks.map((task) => task.provider))];
  if (services.length < 2) return verdictOf(tasks, caps);
  const parts = [
    verdictOf(
      tasks,
      caps.filter((cap) => cap.provider === null),
    ),
    ...services.map((service) =>
      verdictOf(
        tasks.filter((task) => task.provider === service),
        caps.filter((cap) => cap.provider === service),
      ),
    ),
  ];
  const refusing = parts.find((part) => part.refusal !== undefined);
  return {
    ...(refusing?.refusal ? { refusal: refusing.refusal } : {}),
    ...(refusing?.refused ? { refused: refusing.refused } : {}),
    warnings: parts.flatMap((part) => part.warnings),
    forecasts: parts.flatMap((part) => part.forecasts),
  };
}
