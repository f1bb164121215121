/**
 * Child process of settings-kill.test.ts: changes the settings in a loop through the store the
 * CLI keeps them in (the app's settings.json, electron/adapters/json-file-kv.ts) and the service
 * every front uses, printing `wrote <n>` after each change, until the parent's SIGKILL lands,
 * anywhere in a write (the temporary file half written, synced, renamed or not).
 *
 * Started from its bundle (tests/support/node-entries.ts):
 * Usage: node settings-kill-worker.js <dataDir> <first n>
 */
import { JsonFileKv } from '../../../electron/adapters/json-file-kv';
import { SettingsService } from '../../../electron/core/settings/settings-service';
import { printLine as print } from '../support/print-line';

/** The values of change `n`: two settings that must always be read back together. */
export function settingsOf(n: number): { defaultModel: string; defaultCount: number } {
  return { defaultModel: `model-${n}`, defaultCount: (n % 9) + 1 };
}

function main(): void {
  const [dataDir, first] = process.argv.slice(2);
  if (!dataDir || first === undefined) throw new Error('usage: settings-kill-worker <dataDir> <n>');
  const service = new SettingsService({
    store: new JsonFileKv(dataDir, 'settings'),
    now: Date.now,
  });
  for (let n = Number(first); ; n += 1) {
    service.update(settingsOf(n));
    print(`wrote ${n}`);
  }
}

if (process.argv[1]?.includes('settings-kill-worker')) main();
