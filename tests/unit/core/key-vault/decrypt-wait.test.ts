/**
 * A decrypt the OS holds (a keychain prompt asked during the decrypt itself, after the storage's
 * first answer) is told by the key's status: `ready` with `decrypting`, from DECRYPT_NOTICE_MS
 * until the OS answers, so the window can say why the library waits. A decrypt answered at once
 * tells nothing. On the manual clock.
 */
import { describe, expect, it } from 'vitest';
import { DECRYPT_NOTICE_MS, KeyVault } from '../../../../electron/core/key-vault/key-vault';
import type { KeyStatus } from '../../../../shared/domain/key-status';
import { keyStatusSchema } from '../../../../shared/domain/key-status';
import { HeldCipher } from '../../../fakes/in-memory-cipher';
import { InMemoryKv } from '../../../fakes/in-memory-kv';
import { ManualClock } from '../../../fakes/manual-clock';
import { KEY, expectNoKeyIn } from './vault-harness';

async function heldVault() {
  const clock = new ManualClock();
  const cipher = new HeldCipher();
  const vault = new KeyVault({
    store: new InMemoryKv('/data', 'key-vault'),
    cipher,
    now: () => clock.now(),
    timers: clock,
  });
  await vault.setKey(KEY, { allowWeakStorage: false, baseUrl: null });
  const told: KeyStatus[] = [];
  vault.onDidChange((status) => told.push(status));
  return { clock, cipher, vault, told };
}

describe('a decrypt the OS holds', () => {
  it('is told as decrypting after a while, until the OS answers, through overlapping reads', async () => {
    const { clock, cipher, vault, told } = await heldVault();
    cipher.holdDecrypt();
    const first = vault.readKey();
    await clock.advance(DECRYPT_NOTICE_MS - 1);
    expect(told).toEqual([]);
    const second = vault.readKey();
    await clock.advance(1);
    expect(told.map((status) => status.decrypting)).toEqual([true]);
    expect(keyStatusSchema().parse(vault.status())).toMatchObject({
      state: 'ready',
      decrypting: true,
    });
    // The second read's own notice falls due while the first's is told: nothing new to say.
    await clock.advance(DECRYPT_NOTICE_MS);
    expect(told).toHaveLength(1);
    cipher.answerDecrypt();
    expect(await first).toBe(KEY);
    expect(await second).toBe(KEY);
    expect(vault.status()).not.toHaveProperty('decrypting');
    expect(told.map((status) => status.decrypting)).toEqual([true, undefined]);
    expectNoKeyIn(told);
  });

  it('tells nothing when the OS answers at once, and leaves no timer behind', async () => {
    const { clock, vault, told } = await heldVault();
    expect(await vault.readKey()).toBe(KEY);
    await clock.advance(DECRYPT_NOTICE_MS * 2);
    expect(told).toEqual([]);
  });

  it('ends with the decrypt that fails: the status is decrypt_failed, not decrypting', async () => {
    const { clock, cipher, vault, told } = await heldVault();
    cipher.holdDecrypt();
    const read = vault.readKey();
    await clock.advance(DECRYPT_NOTICE_MS);
    cipher.decryptFault = 'throws';
    cipher.answerDecrypt();
    expect(await read).toBeNull();
    expect(vault.status().state).toBe('decrypt_failed');
    expect(vault.status()).not.toHaveProperty('decrypting');
    expect(told.at(-1)?.state).toBe('decrypt_failed');
  });
});
