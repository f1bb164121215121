/**
 * The services v18's triggers know are written out in newer-service-schema.ts, not read from
 * PROVIDER_IDS: a later version adds services there, and a library it creates must still note
 * the tasks of the services this version does not know. Read from a new library's own trigger,
 * they are the six v18 knew, and the first of PROVIDER_IDS in order (services are added at its
 * end, never removed).
 */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { withHistoryFile } from '../../../support/history-file';
import { PROVIDER_IDS } from '../../../../shared/domain/providers';
import { removeFolder, tempFolder } from '../../../support/temp-folders';

describe('the services v18 knew', () => {
  it('are the six first of PROVIDER_IDS, in order, in every new library', async () => {
    const dir = await tempFolder('v18-services');
    try {
      const file = join(dir, 'history.sqlite');
      withHistoryFile(file, () => undefined);
      const db = new DatabaseSync(file);
      const sql = String(
        db
          .prepare("SELECT sql FROM sqlite_master WHERE name = 'tasks_newer_service_insert'")
          .get()?.['sql'],
      );
      db.close();
      const words = [...sql.matchAll(/NEW\.provider = '([a-z]+)'/g)].map((match) => match[1]);
      expect(words).toHaveLength(6);
      expect(PROVIDER_IDS.slice(0, 6)).toEqual(words);
    } finally {
      await removeFolder(dir);
    }
  });
});
