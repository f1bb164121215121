/**
 * Every credentials source lists the keys its process holds (CredentialsProvider.heldKeys), which
 * the service client searches every answer for besides the key it sent: the app's, every
 * service's key that can be read now (ServiceKeys.readableKeys, the log's redactor's source too),
 * a replaced or cleared key no longer; the command line's, each variable it read.
 */
import { describe, expect, it } from 'vitest';
import { AppCredentials } from '../../../electron/app/app-credentials';
import { CompareCredentials } from '../../../electron/cli/compare-credentials';
import { EnvCredentials } from '../../../electron/cli/env-credentials';
import { McpCredentials } from '../../../electron/cli/mcp-credentials';
import { ServiceKeys } from '../../../electron/core/key-vault/service-keys';
import { SettingsService } from '../../../electron/core/settings/settings-service';
import { InMemoryCipher } from '../../fakes/in-memory-cipher';
import { InMemoryKv } from '../../fakes/in-memory-kv';

const PICTOR_KEY = 'sk-held-pictor-Hq2Zp9Lw4Xc1';
const FAL_KEY = 'fal-held-Rt5Yu8Io1Pa3Sd6F';
const BFL_KEY = 'bfl-held-Mn7Bv4Cx2Zl9Kj3H';

describe('the keys a process holds', () => {
  it("are the app's every readable service key, and only those still stored", async () => {
    const keys = new ServiceKeys({
      storeFor: (provider) => new InMemoryKv('/d', `key-vault-${provider}`),
      cipher: new InMemoryCipher(),
      now: () => 1,
    });
    const settings = new SettingsService({ store: new InMemoryKv('/d', 'settings'), now: () => 1 });
    const credentials = new AppCredentials({ keys, settings, demoUrl: () => null });
    expect(await credentials.heldKeys()).toEqual([]);
    const bound = { allowWeakStorage: false, baseUrl: 'https://api.example.com' };
    await keys.vault('pictor').setKey('sk-replaced-Wq0Er4Ty7Ui1', bound);
    await keys.vault('pictor').setKey(PICTOR_KEY, bound);
    await keys.vault('fal').setKey(FAL_KEY, { ...bound, baseUrl: 'https://queue.fal.run' });
    expect([...(await credentials.heldKeys())].sort()).toEqual([FAL_KEY, PICTOR_KEY].sort());
    keys.vault('fal').clear();
    expect(await credentials.heldKeys()).toEqual([PICTOR_KEY]);
  });

  it('are none while the OS has not answered yet, without waiting for it (the demo goes on)', async () => {
    /** A cipher whose storage answers only when the user answers a keychain prompt: never here. */
    class Prompting extends InMemoryCipher {
      whenReady(): Promise<void> {
        return new Promise<void>(() => undefined);
      }
    }
    const cipher = new Prompting();
    const keys = new ServiceKeys({
      storeFor: (provider) => new InMemoryKv('/d', `key-vault-${provider}`),
      cipher,
      now: () => 1,
    });
    const settings = new SettingsService({ store: new InMemoryKv('/d', 'settings'), now: () => 1 });
    const credentials = new AppCredentials({ keys, settings, demoUrl: () => null });
    await keys.vault('fal').setKey(FAL_KEY, { allowWeakStorage: false, baseUrl: null });
    cipher.ready = false;
    const waiting = new Promise((resolve) => setImmediate(() => resolve('still waiting')));
    expect(await Promise.race([credentials.heldKeys(), waiting])).toEqual([]);
    cipher.ready = true;
    expect(await credentials.heldKeys()).toEqual([FAL_KEY]);
  });

  it("are the command line's: SERVICE_API_KEY, a compare's keys, and the MCP server's all", async () => {
    const env = {
      SERVICE_API_KEY: ` ${PICTOR_KEY} `,
      PICTOR_KEY_FAL: FAL_KEY,
      PICTOR_KEY_BFL: BFL_KEY,
    };
    const own = await EnvCredentials.create(env, 'https://api.example.com');
    expect(await own.heldKeys()).toEqual([PICTOR_KEY]);
    const none = await EnvCredentials.create({}, 'https://api.example.com');
    expect(await none.heldKeys()).toEqual([]);
    const compare = await CompareCredentials.create(env, ['fal', 'bfl'], new Map());
    expect([...(await compare.heldKeys())].sort()).toEqual([BFL_KEY, FAL_KEY].sort());
    const mcp = await McpCredentials.create(env, own);
    expect([...(await mcp.heldKeys())].sort()).toEqual([BFL_KEY, FAL_KEY, PICTOR_KEY].sort());
  });
});
