import { describe, expect, it } from 'vitest';
import { keyFingerprint } from '../../../../shared/domain/fingerprint';
import { keyStatusSchema } from '../../../../shared/domain/key-status';
import { KeyVaultError } from '../../../../electron/core/secrets/key-text';
import type { InMemoryCipher } from '../../../fakes/in-memory-cipher';
import { InMemoryKv } from '../../../fakes/in-memory-kv';
import {
  KEY,
  NOW,
  OTHER_KEY,
  expectNoKeyIn,
  rejection,
  storedRecord,
  vaultHarness,
} from './vault-harness';

const strong = { allowWeakStorage: false, baseUrl: null };
const consented = { allowWeakStorage: true, baseUrl: null };

describe('KeyVault on a strong backend', () => {
  it('starts not_set with a sentence, and stores, reports and reads a key', async () => {
    const { vault, kv, told } = vaultHarness();
    const before = vault.status();
    expect(before).toMatchObject({ state: 'not_set', fingerprint: null, weak: false });
    expect(before.message).toMatch(/demo service/);
    expect(await vault.readKey()).toBeNull();

    const status = await vault.setKey(`  ${KEY}\n`, strong);
    const fingerprint = await keyFingerprint(KEY);
    expect(keyStatusSchema().parse(status)).toEqual({
      state: 'ready',
      fingerprint,
      backend: 'gnome_libsecret',
      weak: false,
      message: null,
      baseUrl: null,
      check: null,
    });
    expect(storedRecord(kv)).toMatchObject({
      version: 1,
      backend: 'gnome_libsecret',
      weak: false,
      fingerprint,
      storedAt: NOW,
    });
    expect(storedRecord(kv)).not.toHaveProperty('plaintext');
    expect(await vault.readKey()).toBe(KEY);
    expect(told.map((s) => s.state)).toEqual(['ready']);
    expectNoKeyIn(kv.snapshot(), status, told);
  });

  it('replaces the key when set again, and forgets it in one action', async () => {
    const { vault, kv, told } = vaultHarness();
    await vault.setKey(KEY, strong);
    const second = await vault.setKey(OTHER_KEY, strong);
    expect(second.fingerprint).toBe(await keyFingerprint(OTHER_KEY));
    expect(await vault.readKey()).toBe(OTHER_KEY);

    const cleared = vault.clear();
    expect(cleared).toMatchObject({ state: 'not_set', fingerprint: null });
    expect(storedRecord(kv)).toBeUndefined();
    expect(await vault.readKey()).toBeNull();
    expect(told.map((s) => s.state)).toEqual(['ready', 'ready', 'not_set']);
  });

  it.each([
    ['empty', '', /empty/],
    ['whitespace only', ' \t\n ', /empty/],
    ['a control character', `${KEY}\u0000x`, /control character/],
    ['a line break inside', `${KEY.slice(0, 10)}\n${KEY.slice(10)}`, /line break/],
    ['a space inside', `${KEY.slice(0, 10)} ${KEY.slice(10)}`, /space/],
    ['the Bearer prefix', `Bearer ${KEY}`, /Bearer/],
    ['a typographic dash', `sk\u2013${KEY}`, /character that API keys do not use/],
    ['over 4,096 characters', `${KEY}${'x'.repeat(4_096)}`, /too long/],
  ])('refuses a key with %s in a sentence that does not echo it', async (_name, raw, reason) => {
    const { vault, kv, cipher, told } = vaultHarness();
    const error = await rejection(vault.setKey(raw, consented));
    expect(error).toBeInstanceOf(KeyVaultError);
    expect(error.reason).toBe('invalid_key');
    expect(error.code).toBe('bad_input');
    expect(error.message).toMatch(reason);
    expect(error.message).toMatch(/\.$/);
    expect(kv.writes).toBe(0);
    expect(cipher.calls.encrypt).toBe(0);
    expect(told).toEqual([]);
    expectNoKeyIn(error, error.message, String(error.stack));
  });

  it('keeps the key encrypted at rest: the record never holds it in the clear', async () => {
    const { vault, kv } = vaultHarness();
    await vault.setKey(KEY, strong);
    const record = storedRecord(kv)!;
    const bytes = Buffer.from(String(record.ciphertext), 'base64');
    expect(bytes.toString('utf8')).not.toContain(KEY);
    expect(bytes.toString('latin1')).not.toContain('LEAKCANARY');
  });

  it('does not keep the key in the vault after reading it', async () => {
    const { vault } = vaultHarness();
    await vault.setKey(KEY, strong);
    expect(await vault.readKey()).toBe(KEY);
    expectNoKeyIn(vault);
  });

  it('returns null when the key is cleared while a read is under way', async () => {
    const { vault } = vaultHarness();
    await vault.setKey(KEY, strong);
    const reading = vault.readKey();
    vault.clear();
    expect(await reading).toBeNull();
  });
});

describe('KeyVault before the app is ready', () => {
  it('says so, stores nothing and reads nothing; after ready it reports the real state', async () => {
    const { vault, kv, cipher, told } = vaultHarness({ ready: false });
    const status = vault.status();
    expect(status).toMatchObject({ state: 'not_ready', fingerprint: null, weak: false });
    expect(status.message).toMatch(/waiting for your system’s key storage to answer/);

    expect((await vault.setKey(KEY, consented)).state).toBe('not_ready');
    expect(kv.writes).toBe(0);
    expect(cipher.calls.encrypt).toBe(0);
    expect(await vault.readKey()).toBeNull();

    cipher.ready = true;
    expect(vault.refresh().state).toBe('not_set');
    expect(told.map((s) => s.state)).toEqual(['not_set']);
  });

  it('shows a stored key’s fingerprint while not ready, without decrypting it', async () => {
    const kv = new InMemoryKv('/data', 'key-vault');
    await vaultHarness({}, kv).vault.setKey(KEY, strong);
    const { vault, cipher } = vaultHarness({ ready: false }, kv);
    expect(vault.status()).toMatchObject({
      state: 'not_ready',
      fingerprint: await keyFingerprint(KEY),
    });
    expect(await vault.readKey()).toBeNull();
    expect(cipher.calls.decrypt).toBe(0);
    cipher.ready = true;
    expect((await vault.verify()).state).toBe('ready');
  });

  it('waits for a cipher that becomes ready by itself (a keychain prompt), then reads the key', async () => {
    const kv = new InMemoryKv('/data', 'key-vault');
    await vaultHarness({}, kv).vault.setKey(KEY, strong);
    const { vault, cipher } = vaultHarness({ ready: false }, kv);
    let answer: () => void = () => undefined;
    const answered = new Promise<void>((resolve) => (answer = resolve));
    Object.assign(cipher, {
      whenReady: async () => {
        await answered;
        cipher.ready = true;
      },
    });
    let read: string | null | undefined;
    const reading = vault.readKey().then((key) => (read = key));
    await new Promise((resolve) => setImmediate(resolve));
    // The storage has not answered: the request waits, it does not go on without its key.
    expect(read).toBeUndefined();
    expect(cipher.calls.decrypt).toBe(0);
    answer();
    await reading;
    expect(read).toBe(KEY);
  });
});

describe('KeyVault on Linux basic_text (weak storage)', () => {
  it('asks for consent and stores nothing without it', async () => {
    const { vault, kv, cipher, told } = vaultHarness({ backend: 'basic_text' });
    const status = vault.status();
    expect(status).toMatchObject({ state: 'needs_consent', backend: 'basic_text', weak: true });
    expect(status.message).toMatch(/plain text/);

    const refused = await vault.setKey(KEY, strong);
    expect(refused).toMatchObject({ state: 'needs_consent', fingerprint: null, weak: true });
    expect(kv.writes).toBe(0);
    expect(cipher.calls.encrypt).toBe(0);
    expect(await vault.readKey()).toBeNull();
    expect(told).toEqual([]);
  });

  it('stores the key with consent, marked weak, and says how it is kept', async () => {
    const { vault, kv } = vaultHarness({ backend: 'basic_text' });
    const status = await vault.setKey(KEY, consented);
    expect(status).toMatchObject({ state: 'ready', backend: 'basic_text', weak: true });
    expect(status.message).toMatch(/as you agreed/);
    expect(storedRecord(kv)).toMatchObject({ backend: 'basic_text', weak: true });
    expect(await vault.readKey()).toBe(KEY);
  });

  it('keeps an existing key when a new one is refused for want of consent', async () => {
    const { vault, cipher } = vaultHarness({ backend: 'basic_text' });
    await vault.setKey(KEY, consented);
    const refused = await vault.setKey(OTHER_KEY, strong);
    expect(refused).toMatchObject({
      state: 'needs_consent',
      fingerprint: await keyFingerprint(KEY),
    });
    expect(vault.status().state).toBe('ready');
    expect(await vault.readKey()).toBe(KEY);
    cipher.currentBackend = 'unknown';
    expect(vault.status().state).toBe('backend_changed');
  });
});

describe('KeyVault when the OS cannot encrypt at all', () => {
  it('says so, and stores nothing without consent', async () => {
    const { vault, kv } = vaultHarness({ available: false, backend: 'unknown' });
    expect(vault.status()).toMatchObject({ state: 'unavailable', weak: true });
    expect(vault.status().message).toMatch(/cannot encrypt/);
    expect(await vault.setKey(KEY, strong)).toMatchObject({ state: 'unavailable' });
    expect(kv.writes).toBe(0);
  });

  it('with consent keeps the key as plain text, marked weak with backend "plaintext"', async () => {
    const { vault, kv, cipher } = vaultHarness({ available: false, backend: 'unknown' });
    const status = await vault.setKey(KEY, consented);
    expect(status).toMatchObject({ state: 'ready', backend: 'plaintext', weak: true });
    expect(status.message).toMatch(/no encryption/);
    expect(storedRecord(kv)).toMatchObject({ plaintext: true, backend: 'plaintext', weak: true });
    expect(await vault.readKey()).toBe(KEY);
    expect(cipher.calls.decrypt).toBe(0);
  });

  it('reports a stored encrypted key as unreadable while encryption is unavailable', async () => {
    const { vault, cipher } = vaultHarness();
    await vault.setKey(KEY, strong);
    cipher.available = false;
    const status = vault.status();
    expect(status).toMatchObject({ state: 'unavailable', fingerprint: await keyFingerprint(KEY) });
    expect(status.message).toMatch(/Unlock your keyring/);
    expect(await vault.readKey()).toBeNull();
    cipher.available = true;
    expect(await vault.readKey()).toBe(KEY);
  });
});

describe('KeyVault when the Linux backend changed since the key was stored', () => {
  it.each(['kwallet5', 'basic_text'])(
    'asks for the key again (now %s) and never decrypts',
    async (now) => {
      const { vault, cipher } = vaultHarness({ backend: 'gnome_libsecret' });
      await vault.setKey(KEY, strong);
      cipher.currentBackend = now;
      const status = vault.status();
      expect(status).toMatchObject({ state: 'backend_changed', backend: now });
      expect(status.message).toMatch(/GNOME keyring/);
      expect(status.message).toMatch(/Enter the key again/);
      const decrypts = cipher.calls.decrypt;
      expect(await vault.readKey()).toBeNull();
      expect(cipher.calls.decrypt).toBe(decrypts);
    },
  );

  it('is ready again once the key is entered under the new backend', async () => {
    const { vault, cipher } = vaultHarness({ backend: 'gnome_libsecret' });
    await vault.setKey(KEY, strong);
    cipher.currentBackend = 'kwallet6';
    expect((await vault.setKey(KEY, strong)).state).toBe('ready');
    expect(await vault.readKey()).toBe(KEY);
  });
});

describe('KeyVault when decryption fails', () => {
  it.each([
    ['throws', 'throws'],
    ['returns garbage', 'garbage'],
    ['returns an empty string', 'empty'],
    ['returns another plausible key', 'other-key'],
  ] as const)('gives null, never the text, when the cipher %s', async (_name, fault) => {
    const { vault, cipher, told, logs } = vaultHarness();
    await vault.setKey(KEY, strong);
    cipher.decryptFault = fault;
    expect(await vault.readKey()).toBeNull();
    const status = vault.status();
    expect(status).toMatchObject({
      state: 'decrypt_failed',
      fingerprint: await keyFingerprint(KEY),
    });
    expect(status.message).toMatch(/could not be decrypted.*Enter the key again/);
    expect(told.at(-1)?.state).toBe('decrypt_failed');
    expectNoKeyIn(told, logs);
  });

  it('stays failed without asking the cipher again, until verify() succeeds', async () => {
    const { vault, cipher } = vaultHarness();
    await vault.setKey(KEY, strong);
    cipher.decryptFault = 'throws';
    await vault.readKey();
    const decrypts = cipher.calls.decrypt;
    expect(await vault.readKey()).toBeNull();
    expect(cipher.calls.decrypt).toBe(decrypts);
    expect((await vault.verify()).state).toBe('decrypt_failed');
    cipher.decryptFault = 'none';
    expect((await vault.verify()).state).toBe('ready');
    expect(await vault.readKey()).toBe(KEY);
  });

  it('fails for a vault file written on another machine', async () => {
    const kv = new InMemoryKv('/data', 'key-vault');
    await vaultHarness({ machine: 'laptop' }, kv).vault.setKey(KEY, strong);
    const { vault } = vaultHarness({ machine: 'desktop' }, kv);
    expect(vault.status().state).toBe('ready');
    expect((await vault.verify()).state).toBe('decrypt_failed');
  });

  it('recovers by clearing or by entering the key again', async () => {
    const { vault, cipher } = vaultHarness();
    await vault.setKey(KEY, strong);
    cipher.decryptFault = 'garbage';
    await vault.readKey();
    expect(vault.clear().state).toBe('not_set');
    cipher.decryptFault = 'none';
    await vault.setKey(KEY, strong);
    cipher.decryptFault = 'throws';
    await vault.readKey();
    cipher.decryptFault = 'none';
    expect((await vault.setKey(KEY, strong)).state).toBe('ready');
    expect(await vault.readKey()).toBe(KEY);
  });

  it('treats a plain-text record that does not match its fingerprint as failed', async () => {
    const { vault, kv } = vaultHarness({ available: false });
    await vault.setKey(KEY, consented);
    const record = storedRecord(kv)!;
    kv.set('apiKey', { ...record, ciphertext: Buffer.from(OTHER_KEY).toString('base64') });
    const reopened = vaultHarness({ available: false }, kv).vault;
    expect(await reopened.readKey()).toBeNull();
    expect(reopened.status()).toMatchObject({ state: 'decrypt_failed', backend: 'plaintext' });
  });
});

describe('KeyVault with a damaged or unwritable file', () => {
  it('keeps a file that is not JSON aside, says where, and accepts the key again', async () => {
    const kv = new InMemoryKv('/data', 'key-vault');
    kv.damage();
    const { vault } = vaultHarness({}, kv);
    const status = vault.status();
    expect(status.state).toBe('decrypt_failed');
    expect(status.message).toMatch(
      /damaged.*\/data\/key-vault\.corrupt-2026-01-15T12-00-00-000Z\.json/,
    );
    expect([...kv.movedAside.keys()]).toEqual([
      '/data/key-vault.corrupt-2026-01-15T12-00-00-000Z.json',
    ]);
    expect(await vault.readKey()).toBeNull();
    expect((await vault.setKey(KEY, strong)).state).toBe('ready');
  });

  it('treats a record that fails its schema as damaged', async () => {
    const kv = new InMemoryKv('/data', 'key-vault');
    kv.set('apiKey', { version: 2, ciphertext: 'not base64!' });
    const { vault } = vaultHarness({}, kv);
    expect(vault.status().state).toBe('decrypt_failed');
    expect(kv.movedAside.size).toBe(1);
  });

  it('still reports the damage when the file cannot be moved aside', () => {
    const kv = new InMemoryKv('/data', 'key-vault');
    kv.damage();
    kv.failMoveAside = true;
    const { vault, logs } = vaultHarness({}, kv);
    expect(vault.status()).toMatchObject({ state: 'decrypt_failed' });
    expect(vault.status().message).toMatch(/damaged and could not be read\. Enter/);
    expect(logs.some((line) => /could not be moved aside/.test(line.message))).toBe(true);
  });

  it('clears a damaged file by moving it away', () => {
    const kv = new InMemoryKv('/data', 'key-vault');
    const { vault } = vaultHarness({}, kv);
    kv.damage();
    expect(vault.clear().state).toBe('not_set');
    expect(kv.movedAside.size).toBe(1);
  });

  it('says the key was not saved (in a sentence with the path) when the file cannot be written', async () => {
    const { vault, kv, told } = vaultHarness();
    await vault.setKey(KEY, strong);
    kv.failWrites = true;
    const error = await rejection(vault.setKey(OTHER_KEY, strong));
    expect(error).toBeInstanceOf(KeyVaultError);
    expect(error.reason).toBe('not_saved');
    expect(error.code).toBe('failed');
    expect(error.message).toMatch(/could not be saved in \/data\/key-vault\.json/);
    expect(await vault.readKey()).toBe(KEY);
    expect(told.map((s) => s.state)).toEqual(['ready']);
    expectNoKeyIn(error, error.message);
  });

  it('refuses to clear when the file can be neither changed nor moved', async () => {
    const { vault, kv } = vaultHarness();
    await vault.setKey(KEY, strong);
    kv.failWrites = true;
    kv.failMoveAside = true;
    expect(() => vault.clear()).toThrow(/could not be removed/);
    expect(vault.status().state).toBe('ready');
  });

  it.each([
    ['throws', (c: InMemoryCipher) => (c.encryptThrows = true)],
    ['garbles the round trip', (c: InMemoryCipher) => (c.decryptFault = 'garbage')],
  ])('stores nothing when encryption %s', async (_name, breakIt) => {
    const { vault, kv, cipher } = vaultHarness();
    breakIt(cipher);
    const error = await rejection(vault.setKey(KEY, strong));
    expect(error.message).toMatch(/refused to protect the key/);
    expect(kv.writes).toBe(0);
    expectNoKeyIn(error, error.message);
  });
});

describe('KeyVault listeners and leaks', () => {
  it('tells listeners only of changes, survives a throwing listener, and can unsubscribe', async () => {
    const { vault, told } = vaultHarness();
    vault.onDidChange(() => {
      throw new Error('listener broke');
    });
    const seen: string[] = [];
    const subscription = vault.onDidChange((status) => seen.push(status.state));
    vault.refresh();
    vault.refresh();
    await vault.setKey(KEY, strong);
    subscription.dispose();
    vault.clear();
    expect(told.map((s) => s.state)).toEqual(['not_set', 'ready', 'not_set']);
    expect(seen).toEqual(['not_set', 'ready']);
  });

  it('never lets the key into a status, a message, an error or a log line', async () => {
    const { vault, cipher, told, logs } = vaultHarness({ backend: 'basic_text' });
    const seen: unknown[] = [];
    seen.push(await vault.setKey(KEY, strong));
    seen.push(await vault.setKey(KEY, consented));
    await vault.readKey();
    cipher.currentBackend = 'kwallet5';
    seen.push(vault.status());
    cipher.currentBackend = 'basic_text';
    cipher.decryptFault = 'throws';
    await vault.readKey();
    seen.push(vault.status());
    seen.push(await rejection(vault.setKey(`${KEY}\u0007`, consented)));
    cipher.encryptThrows = true;
    seen.push(await rejection(vault.setKey(OTHER_KEY, consented)));
    seen.push(vault.clear());
    for (const item of seen) if (item instanceof Error) seen.push(item.message, item.stack);
    expectNoKeyIn(seen, told, logs);
    expect(told.map((s) => s.state)).toEqual(['ready', 'decrypt_failed', 'needs_consent']);
    expect(logs.length).toBeGreaterThanOrEqual(3);
  });

  it('has a leak check that finds a key, or a part of one, anywhere in a value', () => {
    expect(() => expectNoKeyIn({ deep: [new Map([['k', KEY.slice(3)]])] })).toThrow();
    expect(() => expectNoKeyIn(new Error(`bad key ${OTHER_KEY}`))).toThrow();
  });
});

describe('KeyVault base URL binding', () => {
  it('stores the base URL with the key, rebinds without re-encrypting, and reports it', async () => {
    const { vault, kv } = vaultHarness();
    expect(vault.hasKey()).toBe(false);
    expect(vault.boundBaseUrl()).toBeUndefined();
    const status = await vault.setKey(KEY, {
      allowWeakStorage: false,
      baseUrl: 'https://gateway.example/team-a',
    });
    expect(status.baseUrl).toBe('https://gateway.example/team-a');
    expect(vault.hasKey()).toBe(true);
    const ciphertext = storedRecord(kv)?.ciphertext;
    expect(vault.bindBaseUrl('https://gateway.example/team-b').baseUrl).toBe(
      'https://gateway.example/team-b',
    );
    expect(storedRecord(kv)).toMatchObject({
      baseUrl: 'https://gateway.example/team-b',
      ciphertext,
    });
    expect(await vault.readKey()).toBe(KEY);
    vault.clear();
    expect(vault.bindBaseUrl('https://c.example').state).toBe('not_set');
    expect(kv.snapshot()).toEqual({});
  });

  it('reads the records of earlier versions as not yet bound, and tells what they said', async () => {
    const { vault, kv } = vaultHarness();
    await vault.setKey(KEY, { allowWeakStorage: false, baseUrl: 'https://a.example/x' });
    const { baseUrl: _baseUrl, ...beforeBinding } = storedRecord(kv) ?? {};
    const readAs = (record: object) => {
      kv.set('apiKey', record);
      return vaultHarness({}, kv).vault;
    };
    const originOnly = readAs({ ...beforeBinding, origin: 'https://a.example' });
    expect(originOnly.boundBaseUrl()).toBeUndefined();
    expect(originOnly.legacyOrigin()).toBe('https://a.example');
    expect(originOnly.status().baseUrl).toBeNull();
    expect(readAs({ ...beforeBinding, origin: null }).legacyOrigin()).toBeNull();
    expect(readAs(beforeBinding).legacyOrigin()).toBeUndefined();

    // Binding writes the base URL and drops the origin, which is read once, never written.
    originOnly.bindBaseUrl('https://a.example/x');
    expect(storedRecord(kv)).toMatchObject({ baseUrl: 'https://a.example/x' });
    expect(storedRecord(kv)).not.toHaveProperty('origin');
    expect(originOnly.legacyOrigin()).toBeUndefined();
  });
});

describe('KeyVault: what the service said of the key', () => {
  const AT = 'https://api.example';
  const accepted = { outcome: 'accepted', at: NOW - 60_000 } as const;

  it('stores a key with the check that accepted it, and one saved without a check as not checked', async () => {
    const { vault, kv } = vaultHarness();
    const checked = await vault.setKey(KEY, {
      allowWeakStorage: false,
      baseUrl: AT,
      check: accepted,
    });
    expect(checked.check).toEqual(accepted);
    expect(storedRecord(kv)).toMatchObject({ version: 1, check: accepted });
    // After a restart (a new vault on the same file) it reads the same.
    expect(vaultHarness({}, kv).vault.status().check).toEqual(accepted);

    const unchecked = await vault.setKey(OTHER_KEY, { allowWeakStorage: false, baseUrl: AT });
    expect(unchecked.check).toBeNull();
    expect(storedRecord(kv)).not.toHaveProperty('check');
    expect(vaultHarness({}, kv).vault.status().check).toBeNull();
  });

  it('reads a record written before checks were kept as a working key, not checked yet', async () => {
    const { vault, kv } = vaultHarness();
    await vault.setKey(KEY, { allowWeakStorage: false, baseUrl: AT });
    const { check: _none, ...earlier } = storedRecord(kv) ?? {};
    kv.set('apiKey', earlier);
    const reopened = vaultHarness({}, kv).vault;
    expect(reopened.status()).toMatchObject({ state: 'ready', baseUrl: AT, check: null });
    expect(await reopened.readKey()).toBe(KEY);
  });

  it('keeps what Test connection said of the stored key, and only of that key at that address', async () => {
    const { vault, kv, told } = vaultHarness();
    await vault.setKey(KEY, { allowWeakStorage: false, baseUrl: AT });
    const fingerprint = await keyFingerprint(KEY);
    expect(vault.recordCheck(fingerprint, AT, 'refused').check).toEqual({
      outcome: 'refused',
      at: NOW,
    });
    expect(told.at(-1)?.check).toEqual({ outcome: 'refused', at: NOW });
    expect(vault.recordCheck(fingerprint, AT, 'accepted').check).toEqual({
      outcome: 'accepted',
      at: NOW,
    });
    const writes = kv.writes;
    // Another key (replaced meanwhile), or this key at another address: nothing is kept.
    expect(vault.recordCheck(await keyFingerprint(OTHER_KEY), AT, 'refused').check?.outcome).toBe(
      'accepted',
    );
    expect(vault.recordCheck(fingerprint, 'https://other.example', 'refused').check?.outcome).toBe(
      'accepted',
    );
    expect(kv.writes).toBe(writes);
    // A file that cannot be written loses the mark, never the test's answer.
    kv.failWrites = true;
    expect(() => vault.recordCheck(fingerprint, AT, 'refused')).not.toThrow();
  });

  it('drops the check when the key is bound to another address: said of the old one only', async () => {
    const { vault, kv } = vaultHarness();
    await vault.setKey(KEY, { allowWeakStorage: false, baseUrl: AT, check: accepted });
    expect(vault.bindBaseUrl(AT).check).toEqual(accepted);
    expect(vault.bindBaseUrl('https://elsewhere.example').check).toBeNull();
    expect(storedRecord(kv)).not.toHaveProperty('check');
  });

  it('says before any check whether the storage would take a key now', () => {
    expect(vaultHarness().vault.storageRefusal(false)).toBeNull();
    const weak = vaultHarness({ backend: 'basic_text' }).vault;
    expect(weak.storageRefusal(false)).toMatchObject({ state: 'needs_consent' });
    expect(weak.storageRefusal(true)).toBeNull();
    const early = vaultHarness({ ready: false }).vault;
    expect(early.storageRefusal(true)).toMatchObject({ state: 'not_ready' });
  });
});

describe('KeyVault on the asynchronous safeStorage (Electron 45)', () => {
  /** A vault file as the release on the synchronous `encryptString` left it, read afresh. */
  async function legacyVault() {
    const written = vaultHarness();
    await written.vault.setKey(KEY, { allowWeakStorage: false, baseUrl: 'https://api.example' });
    const record = storedRecord(written.kv)!;
    const legacy = { ...record, ciphertext: written.cipher.encryptLegacy(KEY).toString('base64') };
    const kv = new InMemoryKv('/data', 'key-vault');
    kv.set('apiKey', legacy);
    kv.writes = 0;
    return { ...vaultHarness({}, kv), legacy };
  }

  it('reads a key the synchronous API wrote, and stores it encrypted afresh once', async () => {
    const { vault, kv, cipher, legacy, logs } = await legacyVault();
    expect(Buffer.from(legacy.ciphertext, 'base64').subarray(0, 4).toString()).toBe('v10:');
    expect(await vault.readKey()).toBe(KEY);
    const rewritten = storedRecord(kv)!;
    expect(rewritten.ciphertext).not.toBe(legacy.ciphertext);
    expect((await cipher.decrypt(Buffer.from(rewritten.ciphertext as string, 'base64'))).text).toBe(
      KEY,
    );
    // Only the ciphertext changes: fingerprint, backend, base URL and date are the user's record.
    expect({ ...rewritten, ciphertext: legacy.ciphertext }).toEqual(legacy);
    expect(kv.writes).toBe(1);
    expect(logs.map((line) => line.message)).toContain('API key encrypted again, as the OS asked');

    expect(await vault.readKey()).toBe(KEY);
    expect(kv.writes).toBe(1);
    expect(vault.status()).toMatchObject({ state: 'ready', baseUrl: 'https://api.example' });
    expectNoKeyIn(kv.snapshot(), logs);
  });

  it('encrypts again whenever the OS asks (a rotated key)', async () => {
    const { vault, kv, cipher } = vaultHarness();
    await vault.setKey(KEY, strong);
    const writes = kv.writes;
    const encrypts = cipher.calls.encrypt;
    cipher.askReEncrypt = true;
    expect(await vault.readKey()).toBe(KEY);
    expect(cipher.calls.encrypt).toBe(encrypts + 1);
    expect(kv.writes).toBe(writes + 1);
  });

  it.each([
    [
      'the OS refuses to encrypt',
      (h: Awaited<ReturnType<typeof legacyVault>>) => (h.cipher.encryptThrows = true),
    ],
    [
      'the file cannot be written',
      (h: Awaited<ReturnType<typeof legacyVault>>) => (h.kv.failWrites = true),
    ],
  ])(
    'still returns the key when %s, keeps the old record, and tries again next time',
    async (_name, breakIt) => {
      const harness = await legacyVault();
      const { vault, kv, legacy, logs } = harness;
      breakIt(harness);
      expect(await vault.readKey()).toBe(KEY);
      expect(storedRecord(kv)).toEqual(legacy);
      expect(vault.status().state).toBe('ready');
      expect(logs.map((line) => line.message)).toContain('API key could not be encrypted again');

      harness.cipher.encryptThrows = false;
      kv.failWrites = false;
      expect(await vault.readKey()).toBe(KEY);
      expect(storedRecord(kv)!.ciphertext).not.toBe(legacy.ciphertext);
    },
  );

  it('does not bring back a key cleared while it was being encrypted again', async () => {
    const { vault, kv, cipher } = await legacyVault();
    cipher.onEncrypt = () => vault.clear();
    expect(await vault.readKey()).toBeNull();
    expect(storedRecord(kv)).toBeUndefined();
    expect(vault.status().state).toBe('not_set');
  });
});
