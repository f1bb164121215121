/**
 * What the user is told at start about settings Pictor could not use is what it then uses: a
 * damaged file, or a refused value, stands in as the defaults but on the cautious side of two
 * (UNREAD_SETTINGS: updates only announced, inputs never uploaded), so no sentence may say "reset
 * to defaults" and leave those two out, in any language.
 */
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { DEFAULT_SETTINGS, type Settings } from '../../../../shared/domain/settings';
import { MAIN_TRANSLATIONS } from '../../../../shared/i18n/main-translations';
import { MainCatalogue } from '../../../../shared/i18n/main-catalogue';
import { localeInfo } from '../../../../shared/domain/locales';
import { SettingsService } from '../../../../electron/core/settings/settings-service';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

// The real electron-store in plain Node (see tests/unit/adapters/electron-store-kv.test.ts).
vi.hoisted(() => {
  process.env.ELECTRON_OVERRIDE_DIST_PATH ??= '/nonexistent-electron-dist';
});
const { ElectronStoreKv } = await import('../../../../electron/adapters/electron-store-kv');

/** The English words that name each cautious stand-in, when it is the one in use. */
const SAID: Partial<Record<keyof Settings, (settings: Settings) => string | null>> = {
  updateMode: (s) => (s.updateMode === 'notify' ? 'updates are only checked and announced' : null),
  neverUploadInputs: (s) => (s.neverUploadInputs ? 'input images are never uploaded' : null),
};

let dir: string;
beforeEach(async () => {
  dir = await tempFolder('cautious');
});
afterEach(async () => {
  await removeFolder(dir);
});

function opened(file: string): SettingsService {
  writeFileSync(join(dir, 'settings.json'), file);
  return new SettingsService({
    store: new ElectronStoreKv({ cwd: dir, name: 'settings' }),
    now: () => Date.UTC(2026, 0, 15),
  });
}

describe('sentences about settings Pictor could not use', () => {
  it.each([
    ['a damaged file', '\u0000 not json'],
    ['settings that are no object', JSON.stringify({ settings: 7 })],
    ['a refused update mode', JSON.stringify({ settings: { updateMode: 42 } })],
    ['a refused upload choice', JSON.stringify({ settings: { neverUploadInputs: 'yes' } })],
    [
      'both refused with another',
      JSON.stringify({ settings: { theme: 'neon', updateMode: 3, neverUploadInputs: null } }),
    ],
  ])('after %s, name every cautious value then in use', (_name, file) => {
    const service = opened(file);
    const [problem] = service.takeProblems();
    const used = service.get();
    const named = Object.entries(SAID).flatMap(([name, said]) =>
      used[name as keyof Settings] !== DEFAULT_SETTINGS[name as keyof Settings]
        ? [said!(used)]
        : [],
    );
    expect(named.length).toBeGreaterThan(0);
    for (const words of named) expect(problem?.message).toContain(words);
    expect(problem?.message).not.toMatch(/updates”[^.]*reset to its default/);
  });

  it('are whole sentences in every language, with their values', () => {
    const service = opened(JSON.stringify({ settings: { updateMode: 1, neverUploadInputs: 2 } }));
    const [problem] = service.takeProblems();
    const keys = problem!.sentences.map((said) => said.key);
    expect(keys.slice(0, 2)).toEqual([
      'error.settings.settingCautious',
      'error.settings.settingCautious',
    ]);
    for (const [code, translation] of Object.entries(MAIN_TRANSLATIONS)) {
      const catalogue = new MainCatalogue(localeInfo(code)!, translation);
      // The language's own sentence, not English standing in for a missing one.
      expect(translation['error.settings.settingCautious'], code).toBeTypeOf('string');
      const [updates, uploads] = problem!.sentences
        .slice(0, 2)
        .map((said) => catalogue.text(said.key, said.params));
      expect(updates).not.toBe(uploads);
      expect(updates).not.toContain('{');
      expect(uploads).not.toContain('{');
    }
  });
});
