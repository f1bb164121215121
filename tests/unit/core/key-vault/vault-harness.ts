import { inspect } from 'node:util';
import { expect } from 'vitest';
import type { KeyStatus } from '../../../../shared/domain/key-status';
import { KeyVault } from '../../../../electron/core/key-vault/key-vault';
import type { LogFields, Logger } from '../../../../electron/ports/logger';
import { InMemoryCipher } from '../../../fakes/in-memory-cipher';
import { InMemoryKv } from '../../../fakes/in-memory-kv';

/** A key with a distinctive middle, so any leak of it (or of a part of it) is easy to find. */
export const KEY = 'sk-live-LEAKCANARY-0123456789abcdef';
export const OTHER_KEY = 'sk-live-SECONDCANARY-fedcba9876543210';
export const NOW = Date.UTC(2026, 0, 15, 12, 0, 0);

export interface VaultHarness {
  readonly vault: KeyVault;
  readonly kv: InMemoryKv;
  readonly cipher: InMemoryCipher;
  /** Every status the vault told its listeners. */
  readonly told: KeyStatus[];
  /** Every log line, with its fields. */
  readonly logs: { message: string; fields?: LogFields }[];
}

export function vaultHarness(
  cipherOptions: ConstructorParameters<typeof InMemoryCipher>[0] = {},
  kv = new InMemoryKv('/data', 'key-vault'),
): VaultHarness {
  const cipher = new InMemoryCipher(cipherOptions);
  const logs: VaultHarness['logs'] = [];
  const record = (message: string, fields?: LogFields) => logs.push({ message, fields });
  const logger: Logger = { debug: record, info: record, warn: record, error: record };
  const vault = new KeyVault({ store: kv, cipher, now: () => NOW, logger });
  const told: KeyStatus[] = [];
  vault.onDidChange((status) => told.push(status));
  return { vault, kv, cipher, told, logs };
}

/** Nothing the vault said, logged or kept in its fields contains a key or a part of one. */
export function expectNoKeyIn(...values: unknown[]): void {
  const text = values.map((value) => `${JSON.stringify(value)}\n${inspect(value, { depth: 8 })}`);
  for (const needle of [KEY, OTHER_KEY, 'LEAKCANARY', 'SECONDCANARY', '0123456789abcdef']) {
    expect(text.join('\n')).not.toContain(needle);
  }
}

/** What the vault holds on disk, as the file would. */
export function storedRecord(kv: InMemoryKv): Record<string, unknown> | undefined {
  return kv.snapshot().apiKey as Record<string, unknown> | undefined;
}

/** A rejection's error, for asserting on its class, code, reason and text. */
export async function rejection(
  promise: Promise<unknown>,
): Promise<Error & { code?: string; reason?: string }> {
  try {
    await promise;
  } catch (error) {
    return error as Error & { code?: string; reason?: string };
  }
  throw new Error('expected a rejection');
}
