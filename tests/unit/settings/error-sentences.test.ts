/**
 * The settings area's failures reach a person as catalogue sentences (shared/i18n/errors/
 * settings.ts): a refused key, a vault or settings file that is damaged or cannot be written (real
 * files through the real electron-store), a refused setting, a task waiting for its service’s key, a service address that would take the key elsewhere,
 * an update that is not there. Each carries a sentence whose key is in the area, whose English is
 * the error's message, and which the pseudo-locale renders differently with every value kept.
 */
import { mkdirSync, readFileSync, readdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it, vi } from 'vitest';
import { localeInfo } from '../../../shared/domain/locales';
import { keyStatusSchema } from '../../../shared/domain/key-status';
import { MainCatalogue } from '../../../shared/i18n/main-catalogue';
import { settingsErrors } from '../../../shared/i18n/errors/settings';
import { englishText, sentenceSchema, type Sentence } from '../../../shared/i18n/sentence';
import { systemClock } from '../../../electron/adapters/system-clock';
import { AppCredentials } from '../../../electron/app/app-credentials';
import { AppRuntime } from '../../../electron/app/app-runtime';
import { bundledCoreWorkers } from '../../support/bundled-history-worker';
import { credentialsForRecord } from '../../../electron/core/credentials/record-credentials';
import { KeyVault } from '../../../electron/core/key-vault/key-vault';
import { SettingsService } from '../../../electron/core/settings/settings-service';
import { UpdateService } from '../../../electron/app/updates/update-service';
import { toIpcError } from '../../../electron/ipc/ipc-errors';
import { toDisposable } from '../../../electron/ports/disposable';
import { silentLogger } from '../../../electron/ports/logger';
import { InMemoryCipher } from '../../fakes/in-memory-cipher';
import { ManualClock } from '../../fakes/manual-clock';
import { testImageEngine } from '../../support/image-engine';
import { ownAddress, ownKeyOnly, savedAddress } from '../../support/own-address';
import { REPO_ROOT } from '../../support/source-files';
import { removeFolder, tempFolder } from '../../support/temp-folders';

// The real electron-store in plain Node (see tests/unit/adapters/electron-store-kv.test.ts).
vi.hoisted(() => {
  process.env.ELECTRON_OVERRIDE_DIST_PATH ??= '/nonexistent-electron-dist';
});
const { ElectronStoreKv } = await import('../../../electron/adapters/electron-store-kv');

const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);
const KEY = 'sk-live-SENTENCECANARY-0123456789';
const pseudo = new MainCatalogue(localeInfo('en-XA')!, undefined);

let dir: string;
beforeEach(async () => {
  dir = await tempFolder('settings-sentences');
});
afterEach(async () => {
  await removeFolder(dir);
});

/**
 * `said` is a sentence of this area that reads as `message` in English, reads otherwise in the
 * pseudo-locale, keeps every value there, and survives the schema stored sentences pass.
 */
function expectAreaSentence(said: Sentence | undefined, message: string | null, values: string[]) {
  expect(said).toBeDefined();
  const { key, params } = said!;
  expect(Object.hasOwn(settingsErrors, key)).toBe(true);
  expect(englishText(said!)).toBe(message);
  expect(sentenceSchema().parse(said)).toEqual(said);
  const shown = pseudo.text(key, params);
  expect(shown).not.toBe(message);
  for (const value of values) {
    expect(message).toContain(value);
    expect(shown).toContain(value);
  }
  expect(shown).not.toContain(KEY);
  expect(message).not.toContain(KEY);
}

function vault(cipher = new InMemoryCipher()) {
  return new KeyVault({
    store: new ElectronStoreKv({ cwd: dir, name: 'key-vault' }),
    cipher,
    now: () => NOW,
  });
}

async function thrown(run: () => unknown): Promise<unknown> {
  try {
    await run();
  } catch (error) {
    return error;
  }
  throw new Error('expected a failure');
}

describe('key vault sentences', () => {
  it.each([
    [`Bearer ${KEY}`, 'error.settings.keyBearer', []],
    [`${KEY} ${KEY}`, 'error.settings.keyWhitespace', []],
    [`${KEY}—x`, 'error.settings.keyNotAscii', []],
    ['k'.repeat(4_097), 'error.settings.keyTooLong', ['4,096']],
  ])('refuses %#: a key that cannot be a key, over IPC', async (raw, key, values) => {
    const error = await thrown(() =>
      vault().setKey(raw, { allowWeakStorage: false, baseUrl: null }),
    );
    const sent = toIpcError(error);
    expect(sent.code).toBe('bad_input');
    expect(sent.sentence?.key).toBe(key);
    expectAreaSentence(sent.sentence, sent.message, values);
  });

  it('says a damaged key file was kept aside, naming the real copy', () => {
    writeFileSync(join(dir, 'key-vault.json'), '{ "apiKey": ');
    const status = keyStatusSchema().parse(vault().status());
    const copy = readdirSync(dir).find((name) => name.startsWith('key-vault.corrupt'));
    expect(copy).toBeDefined();
    expect(status.messageSentence?.key).toBe('error.settings.keyDamagedCopy');
    expectAreaSentence(status.messageSentence, status.message, [join(dir, copy!)]);
  });

  it('names an unknown secret store that replaced the one the key was saved with', async () => {
    await vault(new InMemoryCipher({ backend: 'kwallet5' })).setKey(KEY, {
      allowWeakStorage: false,
      baseUrl: 'https://api.example.com',
    });
    const status = vault(new InMemoryCipher({ backend: 'vault_of_ada' })).status();
    expect(status.state).toBe('backend_changed');
    expect(status.messageSentence?.key).toBe('error.settings.keyBackendChanged');
    // The known store is named by the catalogue, the unknown one by its own name.
    expectAreaSentence(status.messageSentence, status.message, ['vault_of_ada']);
    expect(status.message).toMatch(
      /^Your key was saved with KWallet 5, .* the “vault_of_ada” secret/,
    );
  });

  it('says where the key could not be saved when its folder cannot be made', async () => {
    // A regular file where the vault's folder should be: no write succeeds there, even as root.
    writeFileSync(join(dir, 'blocked'), 'not a folder');
    const store = new ElectronStoreKv({ cwd: join(dir, 'blocked', 'sub'), name: 'key-vault' });
    const blocked = new KeyVault({ store, cipher: new InMemoryCipher(), now: () => NOW });
    const error = await thrown(() =>
      blocked.setKey(KEY, { allowWeakStorage: false, baseUrl: null }),
    );
    const sent = toIpcError(error);
    expect(sent.sentence?.key).toBe('error.settings.keyNotSaved');
    expectAreaSentence(sent.sentence, sent.message, [store.path]);
  });
});

describe('settings sentences', () => {
  function settings(name = 'settings') {
    return new SettingsService({
      store: new ElectronStoreKv({ cwd: dir, name }),
      now: () => NOW,
    });
  }

  it.each([
    [{ theme: 'neon' }, 'error.settings.ruleTheme', []],
    [{ defaultCount: 11 }, 'error.settings.ruleDefaultCount', []],
    [{ colour: 'red' }, 'error.settings.unknownSetting', ['colour']],
  ])('refuses %j in a sentence, over IPC', async (patch, key, values) => {
    const sent = toIpcError(await thrown(() => settings().update(patch)));
    expect(sent.code).toBe('bad_input');
    expect(sent.sentence?.key).toBe(key);
    expectAreaSentence(sent.sentence, sent.message, values);
  });

  it('carries the URL policy’s own sentence to the service URL field', async () => {
    const sent = toIpcError(
      await thrown(() => settings().update(ownAddress('http://api.example.com'))),
    );
    expect(sent.code).toBe('bad_input');
    expect(sent.sentence?.key).toMatch(/^error\.service\./);
    expect(englishText(sent.sentence!)).toBe(sent.message);
    expect(sent.message).toMatch(/must start with https:\/\//);
    expect(pseudo.text(sent.sentence!.key, sent.sentence!.params)).not.toBe(sent.message);
  });

  it('says where the settings could not be saved', async () => {
    const service = settings();
    // The file's place taken by a folder: the write fails, even as root.
    mkdirSync(join(dir, 'settings.json'));
    const sent = toIpcError(await thrown(() => service.update({ theme: 'dark' })));
    expect(sent.code).toBe('failed');
    expect(sent.sentence?.key).toBe('error.settings.notSaved');
    expectAreaSentence(sent.sentence, sent.message, [join(dir, 'settings.json')]);
  });

  it('tells of a damaged settings file and of values reset, in whole sentences', () => {
    writeFileSync(join(dir, 'settings.json'), '\u0000 not json');
    const [damaged] = settings().takeProblems();
    const copy = readdirSync(dir).find((name) => name.startsWith('settings.corrupt'));
    expect(damaged?.sentences.map((said) => said.key)).toEqual(['error.settings.fileDamagedCopy']);
    expectAreaSentence(damaged?.sentences[0], damaged!.message, [join(dir, copy!)]);

    writeFileSync(
      join(dir, 'other.json'),
      JSON.stringify({ settings: { theme: 'neon lights', watchTimeoutMinutes: -3 } }),
    );
    const [reset] = settings('other').takeProblems();
    const sentences = reset!.sentences;
    expect(sentences.map((said) => said.key)).toEqual([
      'error.settings.settingReset',
      'error.settings.settingReset',
      'error.settings.oldFileKept',
    ]);
    expect(reset!.message).toBe(sentences.map(englishText).join(' '));
    // The settings are named by the catalogue, in the language shown.
    expectAreaSentence(sentences[0], englishText(sentences[0]!), []);
    expect(englishText(sentences[0]!)).toMatch(/^The setting “theme” had a value/);
    expectAreaSentence(sentences[1], englishText(sentences[1]!), []);
    expect(englishText(sentences[1]!)).toMatch(/^The setting “watch timeout” had a value/);
    const kept = readdirSync(dir).find((name) => name.startsWith('other.corrupt'));
    expectAreaSentence(sentences[2], englishText(sentences[2]!), [join(dir, kept!)]);
    expect(JSON.parse(readFileSync(join(dir, kept!), 'utf8'))).toMatchObject({
      settings: { theme: 'neon lights' },
    });
  });
});

describe('a service address that would take the key elsewhere', () => {
  /** An app whose user answers Cancel to the key-origin question. */
  const cancellingRuntime = () =>
    AppRuntime.start({
      imageEngine: testImageEngine,
      dataDir: join(dir, 'data'),
      defaultGalleryDir: join(dir, 'gallery'),
      cipher: new InMemoryCipher(),
      settingsStore: new ElectronStoreKv({ cwd: dir, name: 'settings' }),
      earlierVaultStore: new ElectronStoreKv({ cwd: dir, name: 'key-vault' }),
      serviceVaultStore: (provider) =>
        new ElectronStoreKv({ cwd: dir, name: `key-vault-${provider}` }),
      fetch: (url, init) => fetch(url, init),
      clock: systemClock,
      logger: silentLogger,
      prompts: { confirmKeyOrigin: () => Promise.resolve('cancel') },
      ...bundledCoreWorkers(),
    });

  it('is refused in a sentence naming both services, when the user cancels', async () => {
    const runtime = await cancellingRuntime();
    try {
      await runtime.updateSettings(ownAddress('https://api.example.com'));
      await runtime.setKey(KEY, false);
      const sent = toIpcError(
        await thrown(() => runtime.updateSettings(ownAddress('https://other.example.net:8443'))),
      );
      expect(sent.code).toBe('bad_input');
      expect(sent.sentence?.key).toBe('error.settings.keyStaysWith');
      expectAreaSentence(sent.sentence, sent.message, [
        'api.example.com',
        'other.example.net:8443',
      ]);
      expect(sent.message).toMatch(/enter that service’s key\.$/);
    } finally {
      await runtime.close();
    }
  });

  it('a key saved before any address was set is named as never sent, not as kept by a service', async () => {
    const runtime = await cancellingRuntime();
    try {
      await runtime.setKey(KEY, false);
      const sent = toIpcError(
        await thrown(() => runtime.updateSettings(ownAddress('https://other.example.net:8443'))),
      );
      expect(sent.code).toBe('bad_input');
      expect(sent.sentence?.key).toBe('error.settings.keyNotSent');
      expectAreaSentence(sent.sentence, sent.message, ['other.example.net:8443']);
      expect(savedAddress(runtime.settings.get())).toBe('');
    } finally {
      await runtime.close();
    }
  });
});

describe('task and update sentences', () => {
  it('says a task waits for the key of its own service, naming both hosts', async () => {
    const keys = vault();
    await keys.setKey(KEY, { allowWeakStorage: false, baseUrl: 'https://api.example.com' });
    const credentials = new AppCredentials({
      keys: ownKeyOnly(keys),
      settings: {
        get: () => ownAddress('https://api.example.com'),
        onDidChange: () => toDisposable(() => undefined),
      },
      demoUrl: () => null,
    });
    const waiting = await credentialsForRecord(credentials, {
      endpoint: 'https://images.example.net:8443',
    });
    expect(waiting.ok).toBe(false);
    const error = waiting.ok ? null : waiting.error;
    expect(error?.kind).toBe('auth');
    expect(error?.sentence?.key).toBe('error.settings.taskOtherOrigin');
    expectAreaSentence(error?.sentence, error!.message, [
      'images.example.net:8443',
      'api.example.com',
    ]);
  });

  it('names what is there in every other case, and never a service that is not there', async () => {
    const keys = vault();
    // A key saved while no service address was set (on the demo) is bound to no origin.
    await keys.setKey(KEY, { allowWeakStorage: false, baseUrl: null });
    const credentials = new AppCredentials({
      keys: ownKeyOnly(keys),
      settings: { get: () => ownAddress(''), onDidChange: () => toDisposable(() => undefined) },
      demoUrl: () => null,
    });
    const reason = async (endpoint: string) => {
      const found = await credentialsForRecord(credentials, { endpoint });
      expect(found.ok).toBe(false);
      const error = found.ok ? null : found.error;
      expect(error?.kind).toBe('auth');
      return error!;
    };
    const cases: [endpoint: string, key: string, values: string[]][] = [
      [
        'https://images.example.net:8443',
        'error.settings.taskKeyUnbound',
        ['images.example.net:8443'],
      ],
      // The demo's credentials are missing only while the built-in demo service is not running.
      ['demo:', 'error.settings.taskDemoNotRunning', []],
    ];
    for (const [endpoint, key, values] of cases) {
      const error = await reason(endpoint);
      expect(error.sentence?.key).toBe(key);
      expectAreaSentence(error.sentence, error.message, values);
    }
    // An address the URL policy refuses (a record from an older version, or a crafted one) gets
    // the policy's own sentence, which says what is wrong with it.
    const refused: [endpoint: string, key: string][] = [
      ['http://images.example.net', 'error.service.serviceUrlPlainHttp'],
      ['ftp://images.example.net', 'error.service.serviceUrlScheme'],
      ['https://images.example.net/?a=1', 'error.service.serviceUrlQuery'],
      ['https://user:pw@images.example.net', 'error.service.serviceUrlCredentials'],
      ['not a url', 'error.service.serviceUrlInvalid'],
    ];
    for (const [endpoint, key] of refused) {
      const error = await reason(endpoint);
      expect(error.sentence?.key).toBe(key);
      expect(error.message).toBe(englishText(error.sentence!));
    }
    // Whatever the case, no sentence of this area names an absent service in words.
    for (const key of Object.keys(settingsErrors)) {
      expect(settingsErrors[key as keyof typeof settingsErrors]).not.toMatch(/no service/i);
    }
  });

  it('never contacts this computer for an imported task, and says why', async () => {
    const credentials = new AppCredentials({
      keys: ownKeyOnly(vault()),
      settings: { get: () => ownAddress(''), onDidChange: () => toDisposable(() => undefined) },
      demoUrl: () => 'http://127.0.0.1:9',
    });
    const found = await credentialsForRecord(credentials, {
      imported: true,
      endpoint: 'http://127.0.0.1:8080',
    });
    const error = found.ok ? null : found.error;
    expect(error?.kind).toBe('config');
    expect(error?.sentence?.key).toBe('error.settings.importedLocal');
    expectAreaSentence(error?.sentence, error!.message, []);
  });

  it('refuses to restart for an update that was not downloaded', async () => {
    const updates = new UpdateService({
      updater: {
        capability: { kind: 'install' },
        check: () => Promise.resolve(null),
        download: () => Promise.resolve(),
        installOnQuit: () => undefined,
        beforeQuit: () => Promise.resolve(),
        quitAndInstall: () => undefined,
      },
      clock: new ManualClock(),
      logger: silentLogger,
      mode: () => 'download',
    });
    const sent = toIpcError(await thrown(() => updates.restart()));
    expect(sent.code).toBe('bad_input');
    expect(sent.sentence?.key).toBe('error.settings.noUpdateToInstall');
    expectAreaSentence(sent.sentence, sent.message, []);
  });
});

describe('the settings area’s sources', () => {
  const FOLDERS = [
    'electron/core/key-vault',
    'electron/core/credentials',
    'electron/core/settings',
    'electron/app/updates',
  ];
  const FILES = [
    'electron/app/app-credentials.ts',
    'electron/app/app-runtime.ts',
    'electron/ipc/key-handlers.ts',
    'electron/ipc/settings-handlers.ts',
    'electron/ipc/update-handlers.ts',
    ...FOLDERS.flatMap((folder) =>
      readdirSync(join(REPO_ROOT, folder))
        .filter((name) => name.endsWith('.ts'))
        .map((name) => `${folder}/${name}`),
    ),
  ];
  /**
   * A user-facing error made from words in the code instead of a catalogue sentence (a key
   * vault error's words come after its reason).
   */
  const WORDS_IN_CODE =
    /new\s+(?:(?:UserFacing|Settings|UrlPolicy)Error\(|KeyVaultError\(\s*'[a-z_]+',)\s*[`'"]/;

  it('make every user-facing error from a catalogue sentence', () => {
    expect(FILES.length).toBeGreaterThan(15);
    const offenders = FILES.filter((file) =>
      WORDS_IN_CODE.test(readFileSync(join(REPO_ROOT, file), 'utf8')),
    );
    expect(offenders).toEqual([]);
    // The scan does find the habit it bans.
    expect(WORDS_IN_CODE.test("throw new SettingsError('Your settings were not saved.')")).toBe(
      true,
    );
    expect(WORDS_IN_CODE.test("new KeyVaultError('not_saved', `Not saved in ${path}.`)")).toBe(
      true,
    );
    expect(WORDS_IN_CODE.test("new KeyVaultError('not_saved', keyMessages.encryptFailed)")).toBe(
      false,
    );
  });
});
