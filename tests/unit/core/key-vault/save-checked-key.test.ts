/**
 * Save (core/key-vault/save-checked-key.ts) over a real vault and a scripted key check: the key
 * is checked with its service before it is stored, the same way for every service; weak storage
 * is asked about first; a key that cannot be one is never sent; a refused key is not stored; one
 * that could not be checked only when the user says so, marked "not checked yet".
 */
import { describe, expect, it } from 'vitest';
import {
  saveCheckedKey,
  type SaveKeyDeps,
} from '../../../../electron/core/key-vault/save-checked-key';
import type { ConnectionReport } from '../../../../electron/core/service/connection-report';
import type { ServiceCredentials } from '../../../../electron/ports/credentials';
import { KEY, NOW, rejection, storedRecord, vaultHarness } from './vault-harness';

const AT = 'https://api.example';
const report = (outcome: ConnectionReport['outcome']): ConnectionReport => ({
  ok: outcome === 'accepted',
  outcome,
  message: `The service said ${outcome}.`,
});

function save(answer: ConnectionReport, options: { weak?: boolean; baseUrl?: string | null } = {}) {
  const harness = vaultHarness(options.weak ? { backend: 'basic_text' } : {});
  const asked: ServiceCredentials[] = [];
  const deps: SaveKeyDeps = {
    vault: harness.vault,
    baseUrl: options.baseUrl === undefined ? AT : options.baseUrl,
    provider: 'bfl',
    probe: async (credentials) => {
      asked.push(credentials);
      return answer;
    },
    now: () => NOW,
  };
  return { ...harness, asked, deps };
}

const strong = { allowWeakStorage: false, skipCheck: false };

describe('saveCheckedKey', () => {
  it('stores a key its service accepted, with that check, bound where it was asked', async () => {
    const { deps, asked, vault } = save(report('accepted'));
    const saved = await saveCheckedKey(deps, ` ${KEY} `, strong);
    expect(saved).toMatchObject({
      outcome: 'saved',
      status: { state: 'ready', baseUrl: AT, check: { outcome: 'accepted', at: NOW } },
    });
    expect(asked).toEqual([
      { baseUrl: AT, key: KEY, keyFingerprint: expect.any(String), provider: 'bfl' },
    ]);
    expect(await vault.readKey()).toBe(KEY);
  });

  it('stores nothing of a key its service refused, and says why', async () => {
    const { deps, vault, kv } = save(report('key_refused'));
    expect(await saveCheckedKey(deps, KEY, strong)).toEqual({
      outcome: 'refused',
      report: report('key_refused'),
    });
    expect(vault.hasKey()).toBe(false);
    expect(storedRecord(kv)).toBeUndefined();
  });

  it.each(['unreachable', 'failed', 'not_tested'] as const)(
    'asks before storing a key that could not be checked (%s), and stores it unchecked when told',
    async (outcome) => {
      const { deps, vault } = save(report(outcome));
      expect(await saveCheckedKey(deps, KEY, strong)).toEqual({
        outcome: 'unchecked',
        report: report(outcome),
      });
      expect(vault.hasKey()).toBe(false);
      const anyway = await saveCheckedKey(deps, KEY, { allowWeakStorage: false, skipCheck: true });
      expect(anyway).toMatchObject({ outcome: 'saved', status: { state: 'ready', check: null } });
    },
  );

  it('asks about weak storage before asking the service, so the key is checked once', async () => {
    const { deps, asked, vault } = save(report('accepted'), { weak: true });
    expect(await saveCheckedKey(deps, KEY, strong)).toMatchObject({
      outcome: 'storage',
      status: { state: 'needs_consent' },
    });
    expect(asked).toEqual([]);
    const agreed = await saveCheckedKey(deps, KEY, { allowWeakStorage: true, skipCheck: false });
    expect(agreed).toMatchObject({
      outcome: 'saved',
      status: { weak: true, check: { outcome: 'accepted' } },
    });
    expect(asked).toHaveLength(1);
    expect(await vault.readKey()).toBe(KEY);
  });

  it('never sends text that cannot be a key, and has nowhere to ask without an address', async () => {
    const bad = save(report('accepted'));
    expect((await rejection(saveCheckedKey(bad.deps, 'sk with space', strong))).reason).toBe(
      'invalid_key',
    );
    expect(bad.asked).toEqual([]);
    const nowhere = save(report('accepted'), { baseUrl: null });
    expect(await saveCheckedKey(nowhere.deps, KEY, strong)).toMatchObject({
      outcome: 'unchecked',
      report: { outcome: 'not_tested', sentence: { key: 'error.service.testKeyNeedsAddress' } },
    });
    expect(nowhere.asked).toEqual([]);
    expect(nowhere.vault.hasKey()).toBe(false);
  });
});
