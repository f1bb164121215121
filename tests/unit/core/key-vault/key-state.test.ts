import { describe, expect, it } from 'vitest';
import { KEY_STATES, keyStatusSchema } from '../../../../shared/domain/key-status';
import { englishText } from '../../../../shared/i18n/sentence';
import { keyMessages } from '../../../../electron/core/key-vault/key-messages';
import type { KeyRecord } from '../../../../electron/core/key-vault/key-record';
import type { KeyFacts } from '../../../../electron/core/key-vault/key-state';
import { computeKeyStatus, consentRefusal } from '../../../../electron/core/key-vault/key-state';
import { isPlausibleKey } from '../../../../electron/core/secrets/key-text';

const record: KeyRecord = {
  version: 1,
  ciphertext: 'AAAA',
  backend: 'gnome_libsecret',
  weak: false,
  fingerprint: 'abcdef012345',
  storedAt: 1,
};
const base: KeyFacts = {
  ready: true,
  available: true,
  backend: 'gnome_libsecret',
  weak: false,
  record: null,
  problem: null,
};

const table: [string, Partial<KeyFacts>, string][] = [
  ['before ready', { ready: false, available: false }, 'not_ready'],
  ['before ready, key stored', { ready: false, available: false, record }, 'not_ready'],
  ['nothing stored', {}, 'not_set'],
  ['nothing stored, weak backend', { backend: 'basic_text', weak: true }, 'needs_consent'],
  ['nothing stored, no encryption', { available: false }, 'unavailable'],
  ['stored', { record }, 'ready'],
  ['stored, no encryption now', { record, available: false }, 'unavailable'],
  ['stored, backend changed', { record, backend: 'kwallet5' }, 'backend_changed'],
  ['stored, decrypt failed', { record, problem: { kind: 'decrypt_failed' } }, 'decrypt_failed'],
  ['file damaged', { problem: { kind: 'damaged', copy: '/d/k.corrupt.json' } }, 'decrypt_failed'],
  [
    'stored as plain text',
    { record: { ...record, backend: 'plaintext', weak: true, plaintext: true }, available: false },
    'ready',
  ],
];

describe('computeKeyStatus', () => {
  it.each(table)('%s → %s', (_name, facts, state) => {
    const status = keyStatusSchema().parse(computeKeyStatus({ ...base, ...facts }));
    expect(status.state).toBe(state);
    if (state !== 'ready') {
      expect(status.message).toMatch(/^[A-Z].*\.$/);
    }
  });

  it('covers every state the renderer knows', () => {
    const reached = new Set(table.map(([, , state]) => state));
    reached.add(consentRefusal({ ...base, backend: 'basic_text', weak: true }).state);
    expect([...reached].sort()).toEqual([...KEY_STATES].sort());
  });

  it('says what to do in each failure: re-enter the key, or consent to weaker storage', () => {
    const say = (facts: Partial<KeyFacts>) => computeKeyStatus({ ...base, ...facts }).message;
    expect(say({ record, backend: 'kwallet5' })).toMatch(/Enter the key again/);
    expect(say({ record, problem: { kind: 'decrypt_failed' } })).toMatch(/Enter the key again/);
    expect(say({ backend: 'basic_text', weak: true })).toMatch(
      /Store the key anyway if you accept/,
    );
    expect(say({ available: false })).toMatch(/without encryption if you accept/);
    expect(say({ problem: { kind: 'damaged', copy: '/d/k.c.json' } })).toMatch(
      /kept at \/d\/k\.c\.json/,
    );
  });

  it('names backends as a person would', () => {
    const stored = (backend: string) => englishText(keyMessages.weakReady(backend));
    expect(stored('keychain')).toMatch(/^Your key is stored with the macOS Keychain, as/);
    expect(stored('kwallet6')).toMatch(/^Your key is stored with KWallet 6, as/);
    expect(stored('mystery')).toMatch(/^Your key is stored with the “mystery” secret store, as/);
    expect(englishText(keyMessages.backendChanged('kwallet5', 'basic_text'))).toBe(
      'Your key was saved with KWallet 5, but Pictor now runs with Chromium’s basic text store, which cannot read it. Enter the key again.',
    );
  });

  it('carries each sentence beside its English text', () => {
    for (const [, facts] of table) {
      const status = computeKeyStatus({ ...base, ...facts });
      if (status.message === null) expect(status.messageSentence).toBeUndefined();
      else expect(englishText(status.messageSentence!)).toBe(status.message);
    }
  });
});

describe('isPlausibleKey (garbled decrypt detection)', () => {
  it.each([
    ['sk-abc123_DEF.ghi~+/=', true],
    ['', false],
    [' sk-abc', false],
    ['sk-\u0000abc', false],
    ['sk-\ufffdabc', false],
    ['x'.repeat(4_097), false],
  ])('%j → %s', (text, plausible) => {
    expect(isPlausibleKey(text)).toBe(plausible);
  });
});
