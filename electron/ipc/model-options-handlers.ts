/**
 * IPC handlers of the `models:` channels (shared/ipc/model-options-contract.ts): the models'
 * options kept in the data folder, and "Refresh options". The page names a provider and a model
 * only: the schema is fetched from the service's saved address (else the provider's own), with its
 * stored key only when that key was entered for that address (as "Test connection" reads it), by
 * the core's one refresh (core/param-schemas), the CLI's `models show --refresh` too. "Options from
 * a file…" reads the file main's own open dialog chose (never a path from the page) by the book's
 * one import, the CLI's `models import-schema` too; "None" forgets a file's options.
 */
import { PROVIDERS, type ProviderId } from '../../shared/domain/providers';
import { sentence } from '../../shared/i18n/sentence';
import type { ServiceCredentials } from '../ports/credentials';
import type { ModelOptions } from '../core/param-schemas';
import type { StoredKeyFor } from '../core/service';
import { UserFacingError } from '../core/errors';
import type { LibraryDialogs } from '../ports/library-dialogs';
import type { HandlersOf } from './ipc-main-bridge';

export interface ModelOptionsHandlerDeps {
  readonly options: ModelOptions;
  /** The saved address of `provider`'s service, normalised; null when it has none. */
  readonly addressOf: (provider: ProviderId) => string | null;
  /** `provider`'s stored key, only when it was entered for `baseUrl`. */
  readonly storedKeyOf: (provider: ProviderId, baseUrl: string) => Promise<StoredKeyFor>;
  /** Main's own open dialog for a file of options; absent where the host has none. */
  readonly dialogs?: Pick<LibraryDialogs, 'chooseModelOptionsFile'>;
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
    'models:fromFile': async ({ provider, model }) => {
      const choose = deps.dialogs?.chooseModelOptionsFile;
      if (!choose)
        throw new UserFacingError(sentence('error.library.noDialogs'), { code: 'failed' });
      const path = await choose();
      if (!path) return { ok: false, kept: [...deps.options.kept()] };
      const imported = await deps.options.importFile(provider, model, path);
      const problem = imported.ok ? {} : { problem: imported.problem };
      return { ok: imported.ok, ...problem, kept: [...deps.options.kept()] };
    },
    'models:forget': async ({ provider, model }) => {
      await deps.options.forget(provider, model);
      return [...deps.options.kept()];
    },
  };
}
