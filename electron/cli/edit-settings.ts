/**
 * The app's settings as `pictor edit` and `pictor upscale` read them: "never upload inputs", and
 * the services the user agreed may turn uploaded inputs into public links. They live in the data
 * folder's settings.json (the app's electron-store file, whose `settings` value the app's
 * SettingsService reads field by field), read and changed here through the same SettingsService,
 * so the CLI checks them as the app does, and a consent given with --allow-public-upload is the
 * app's too.
 */
import type { ProviderId } from '../../shared/domain/providers';
import { systemClock } from '../adapters/system-clock';
import { JsonFileKv } from '../adapters/json-file-kv';
import { SettingsService } from '../core/settings';

/** The input settings of the library in `dataDir`. */
export class EditSettingsFile {
  private readonly service: SettingsService;

  constructor(dataDir: string) {
    this.service = new SettingsService({
      store: new JsonFileKv(dataDir, 'settings'),
      now: () => systemClock.now(),
    });
  }

  /** What the edit plan reads: "never upload inputs" and the consents given. */
  now(): { neverUploadInputs: boolean; publicUploadConsent: readonly ProviderId[] } {
    const { neverUploadInputs, publicUploadConsent } = this.service.get();
    return { neverUploadInputs, publicUploadConsent };
  }

  /** Records the user's consent to public upload links for `provider` (kept, as the app's). */
  consent(provider: ProviderId): void {
    const given = this.service.get().publicUploadConsent;
    if (!given.includes(provider))
      this.service.update({ publicUploadConsent: [...given, provider] });
  }
}
