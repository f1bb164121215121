/**
 * The settings an edit and every send of input images read: "never upload inputs", and the
 * services the user agreed may turn uploaded inputs into public links; and the loopback servers of
 * other users every request may go to all the same. Over the host's settings
 * store (the CLI's settings.json, read and changed through the same SettingsService as the app's,
 * so a consent given with --allow-public-upload is the app's too), or read as the host gives them
 * (the app, whose Settings screen records a consent itself).
 */
import type { ProviderId } from '../../../shared/domain/providers';
import type { KeyValueStore } from '../../ports/key-value-store';
import type { Logger } from '../../ports/logger';
import { SettingsService } from './settings-service';

/** What a send reads of the settings. */
export interface InputSettingsNow {
  readonly neverUploadInputs: boolean;
  readonly publicUploadConsent: readonly ProviderId[];
  /** Other users' loopback servers the user allowed (local-server-gate.ts); absent: none. */
  readonly allowedLocalServers?: readonly string[];
}

const NO_INPUT_SETTINGS: InputSettingsNow = { neverUploadInputs: false, publicUploadConsent: [] };

export class EditSettings {
  private constructor(
    private readonly read: () => InputSettingsNow,
    private readonly record: ((patch: Partial<InputSettingsNow>) => InputSettingsNow) | null,
  ) {}

  /**
   * The settings in the host's settings store when it gives one (the CLI), else as the host reads
   * them (the app), else the defaults: uploads allowed, no public links.
   */
  static of(host: {
    readonly settingsStore?: KeyValueStore;
    readonly inputSettings?: () => InputSettingsNow;
    readonly now: () => number;
    readonly logger: Logger;
  }): EditSettings {
    const { settingsStore: store, now, logger } = host;
    if (!store) return EditSettings.readOnly(host.inputSettings ?? (() => NO_INPUT_SETTINGS));
    // The settings file is read and checked when a send or a consent first asks: a command that
    // sends no input (a rating, a list) never parses it. The file is the app's: a damaged one is
    // left for the app to repair and report, and a send refused, never made on the defaults.
    let service: SettingsService | undefined;
    const opened = () =>
      (service ??= new SettingsService({ store, now, logger, damaged: 'refuse' }));
    return EditSettings.over({
      reload: () => opened().reload(),
      update: (patch) => opened().update(patch),
    });
  }

  /**
   * The settings in `service`'s store: read again at each send (a command may run for days
   * beside the app: an agent's `pictor mcp`), a consent kept there.
   */
  private static over(service: Pick<SettingsService, 'reload' | 'update'>): EditSettings {
    return new EditSettings(
      () => service.reload(),
      (patch) => service.update(patch),
    );
  }

  /** The settings as the host reads them; a consent is the host's own to record. */
  private static readOnly(read: () => InputSettingsNow): EditSettings {
    return new EditSettings(read, null);
  }

  /**
   * What the edit plan reads: "never upload inputs" and the consents given.
   * @throws SettingsError when the host's settings file is damaged (see {@link of}).
   */
  now(): InputSettingsNow {
    const { neverUploadInputs, publicUploadConsent } = this.read();
    return { neverUploadInputs, publicUploadConsent };
  }

  /**
   * The other users' loopback servers the user allowed, read at each request: none when the
   * host's settings file cannot be read (such a server is then refused, the careful side).
   */
  allowedLocalServers(): readonly string[] {
    try {
      return this.read().allowedLocalServers ?? [];
    } catch {
      return [];
    }
  }

  /**
   * Records the user's consent to public upload links for `provider` (kept, as the app's).
   * @throws Error where the host records consents itself (the app: its Settings screen).
   */
  consent(provider: ProviderId): void {
    if (!this.record) throw new Error('This host records upload consents in its own settings.');
    const given = this.read().publicUploadConsent;
    if (!given.includes(provider)) this.record({ publicUploadConsent: [...given, provider] });
  }

  /**
   * Changes the other users' loopback servers the user allowed (`pictor local-servers`): `change`
   * is given the list now; a list it returns unchanged writes nothing. The list as kept (each
   * address in its kept spelling, settings-fields.ts).
   * @throws SettingsError when the host's settings file is damaged or an entry is refused; Error
   *   where the host records settings itself (the app: its Settings screen asks first).
   */
  changeLocalServers(change: (now: readonly string[]) => readonly string[]): readonly string[] {
    if (!this.record) throw new Error('This host records its local servers in its own settings.');
    const now = this.read().allowedLocalServers ?? [];
    const next = change(now);
    if (next === now) return now;
    return this.record({ allowedLocalServers: next }).allowedLocalServers ?? [];
  }
}
