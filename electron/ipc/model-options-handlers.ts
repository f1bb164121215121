/**
 * IPC handlers of the `models:` channels (shared/ipc/model-options-contract.ts): the models'
 * options kept in the data folder, and "Refresh options". The page names a provider and a model
 * only: the schema is fetched from the service's saved address (else the provider's own), with its
 * stored key only when that key was entered for that address (as "Test connection" reads it), by
 * the core's one refresh (core/param-schemas), the CLI's `models show --refresh` too.
 */
import { PROVIDERS, type ProviderId } from '../../shared/domain/providers';
import { sentence } from '../../shared/i18n/sentence';
import type { ServiceCredentials } from '../ports/credentials';
import type { ModelOptions } from '../core/param-schemas';
import type { StoredKeyFor } from '../core/service';
import type { HandlersOf } from './ipc-main-bridge';

export interface ModelOptionsHandlerDeps {
  readonly options: ModelOptions;
  /** The saved address of `provider`'s service, normalised; null when it has none. */
  readonly addressOf: (provider: ProviderId) => string | null;
  /** `provider`'s stored key, only when it was entered for `baseUrl`. */
  readonly storedKeyOf: (provider: ProviderId, baseUrl: string) => Promise<StoredKeyFor>;
}

/** Who is asked for `provider`'s options: its stored key where it was entered, else no key. */
async function askedOf(
  deps: ModelOptionsHandlerDeps,
  provider: ProviderId,
): Promise<ServiceCredentials | null> {
  const baseUrl = deps.addressOf(provider) ?? PROVIDERS[provider].defaultBaseUrl;
  if (baseUrl === null) return null;
  const stored = await deps.storedKeyOf(provider, baseUrl);
  if (stored.found === 'key') return stored.credentials;
  return { baseUrl, key: '', keyFingerprint: '', provider };
}

export function modelOptionsHandlers(deps: ModelOptionsHandlerDeps): HandlersOf<'models'> {
  return {
    'models:kept': () => Promise.resolve([...deps.options.kept()]),
    'models:refresh': async ({ provider, model }) => {
      const asked = await askedOf(deps, provider);
      if (asked === null) {
        const problem = sentence('error.service.serviceUrlInvalid');
        return { ok: false, problem, kept: [...deps.options.kept()] };
      }
      const refreshed = await deps.options.refresh(asked, model);
      return { ...refreshed, kept: [...deps.options.kept()] };
    },
  };
}
