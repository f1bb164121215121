/**
 * The target a test's submits name (shared/domain/submit-target.ts): the service its credentials
 * stand for, as the compose form or the CLI would name it. A submit carries its target; the
 * engine never reads one from the settings.
 */
import type { ProviderId } from '../../shared/domain/providers';
import { DEMO_ENDPOINT, formTarget, type SubmitTarget } from '../../shared/domain/submit-target';
import type { AppRuntime } from '../../electron/app/app-runtime';
import type { CredentialsProvider } from '../../electron/ports/credentials';

/** `provider` (today's contract unless named) at `endpoint`. */
export function targetAt(endpoint: string, provider: ProviderId = 'pictor'): SubmitTarget {
  return { provider, endpoint };
}

/** The service `credentials` submit to now, as today's contract unless `provider` is named. */
export function targetOf(
  credentials: Pick<CredentialsProvider, 'currentEndpoint'>,
  provider: ProviderId = 'pictor',
): SubmitTarget {
  return targetAt(credentials.currentEndpoint(), provider);
}

/** Today's contract on the app's built-in demo service: what the compose form names before a key is set. */
export const DEMO_TARGET: SubmitTarget = { provider: 'pictor', endpoint: DEMO_ENDPOINT };

/**
 * The target the compose form would name in `runtime`'s window now: the service its settings
 * remember, at the address they give it, with today's contract's key status (as the page sees it).
 */
export function pageTarget(runtime: Pick<AppRuntime, 'settings' | 'vault'>): SubmitTarget {
  const settings = runtime.settings.get();
  return formTarget(settings, settings.provider, runtime.vault.status().state === 'ready');
}
