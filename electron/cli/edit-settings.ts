/**
 * The app's settings as `pictor edit` and `pictor upscale` read them: "never upload inputs", and
 * the services the user agreed may turn uploaded inputs into public links. They live in the data
 * folder's settings.json (the app's electron-store file, whose `settings` value the app's
 * SettingsService reads field by field), read and changed here through the same SettingsService,
 * so the CLI checks them as the app does, and a consent given with --allow-public-upload is the
 * app's too.
 */
import { existsSync, mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { ProviderId } from '../../shared/domain/providers';
import { systemClock } from '../adapters/system-clock';
import { PRIVATE_FILE_MODE, PRIVATE_FOLDER_MODE } from '../core/fs/private-files';
import { SettingsService } from '../core/settings/settings-service';
import type { KeyValueStore } from '../ports/key-value-store';

/** One JSON object in a file, as electron-store keeps it; written whole through a rename. */
class JsonFileStore implements KeyValueStore {
  readonly path: string;

  constructor(
    private readonly dir: string,
    private readonly name: string,
  ) {
    this.path = join(dir, `${name}.json`);
  }

  get(key: string): unknown {
    return this.read()[key];
  }

  set(key: string, value: unknown): void {
    this.write({ ...this.read(), [key]: JSON.parse(JSON.stringify(value)) as unknown });
  }

  delete(key: string): void {
    const { [key]: _gone, ...rest } = this.read();
    this.write(rest);
  }

  moveAside(suffix: string): string | null {
    if (!existsSync(this.path)) return null;
    const target = join(this.dir, `${this.name}.${suffix}.json`);
    renameSync(this.path, target);
    return target;
  }

  /** @throws SyntaxError when the file is not a JSON object (the service keeps it aside). */
  private read(): Record<string, unknown> {
    if (!existsSync(this.path)) return {};
    const parsed: unknown = JSON.parse(readFileSync(this.path, 'utf8'));
    if (parsed === null || typeof parsed !== 'object' || Array.isArray(parsed))
      throw new SyntaxError('The settings file does not hold a JSON object.');
    return parsed as Record<string, unknown>;
  }

  private write(values: Record<string, unknown>): void {
    mkdirSync(this.dir, { recursive: true, mode: PRIVATE_FOLDER_MODE });
    const temporary = `${this.path}.${process.pid}.tmp`;
    writeFileSync(temporary, `${JSON.stringify(values, null, 2)}\n`, { mode: PRIVATE_FILE_MODE });
    renameSync(temporary, this.path);
  }
}

/** The input settings of the library in `dataDir`. */
export class EditSettingsFile {
  private readonly service: SettingsService;

  constructor(dataDir: string) {
    this.service = new SettingsService({
      store: new JsonFileStore(dataDir, 'settings'),
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
