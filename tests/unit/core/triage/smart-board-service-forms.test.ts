/**
 * A smart board's service rule in its two forms, on the real core (history on disk). A board
 * saved before the built-in demo was a service of its own holds `{ kind: 'service', provider }`,
 * and listed that provider's tasks with those of the demo standing in for it (every filter by
 * service read the record's provider then): it lists them still, and says so. A board saved now
 * holds `{ kind: 'service', service }`, the service as shared/domain/service-id.ts names it, the
 * demo's tasks apart; an older Pictor, whose rule schema was strict with `provider` required,
 * reads no such rule: it says the board's rules cannot be read and matches nothing, rather than
 * list it with the demo's tasks in.
 */
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { z } from 'zod';
import { beforeEach, describe, expect, it } from 'vitest';
import { PROVIDER_IDS, providerOf } from '../../../../shared/domain/providers';
import { SERVICE_IDS, serviceIdOf, type ServiceId } from '../../../../shared/domain/service-id';
import {
  checkSmartRules,
  rulesFromFilter,
  type SmartRules,
} from '../../../../shared/domain/smart-board';
import type { TaskRecord } from '../../../../shared/domain/task-record';
import { englishText } from '../../../../shared/i18n/sentence';
import { offlineCore, type OfflineCore } from '../../../support/offline-core';
import { makeImage, makeTask } from '../../../support/task-records';

/**
 * A service rule as every Pictor before this one read it (shared/domain/smart-board.ts at
 * 3f10645a and before: `provider` a provider's id, from demo38 also `demo`; strict, required).
 */
const OLDER_SERVICE_RULE = z.strictObject({
  kind: z.literal('service'),
  provider: z.enum([...PROVIDER_IDS, 'demo']),
});

/** Today's contract at an address and its demo; fal.ai and the demo speaking its dialect. */
const RECORDS: TaskRecord[] = [
  ['own', 'pictor', 'https://images.example.com'],
  ['demo', 'pictor', 'demo:'],
  ['fal', 'fal', 'https://queue.fal.run'],
  ['demo-fal', 'fal', 'demo:fal'],
  ['bfl', 'bfl', 'https://api.bfl.ai'],
].map(([localId, provider, endpoint], n) =>
  makeTask({
    localId,
    provider: provider as TaskRecord['provider'],
    endpoint,
    createdAt: 1_700_000_000_000 + n,
    images: [makeImage(0)],
  }),
);

let core: OfflineCore;

beforeEach(async () => {
  core = await offlineCore();
  core.history.putMany(RECORDS);
});

const listed = (name: string) =>
  [
    ...new Set(
      core.history
        .listImages({ smart: core.smartBoards.rulesOf(name) })
        .items.map((item) => item.localId),
    ),
  ].sort();
const ofRecords = (keep: (record: TaskRecord) => boolean) =>
  RECORDS.filter(keep)
    .map((record) => record.localId)
    .sort();

/** Writes a board as another version of Pictor left it in the library. */
function writtenBefore(id: string, name: string, rules: unknown): void {
  const db = new DatabaseSync(join(core.dir, 'data', 'history.sqlite'));
  db.prepare('INSERT INTO smart_boards (id, name, rules, created_at) VALUES (?, ?, ?, 0)').run(
    id,
    name,
    JSON.stringify(rules),
  );
  db.close();
}

const stored = (name: string): unknown => {
  const db = new DatabaseSync(join(core.dir, 'data', 'history.sqlite'));
  const row = db.prepare('SELECT rules FROM smart_boards WHERE name = ?').get(name);
  db.close();
  return JSON.parse(String(row?.['rules']));
};

describe('a smart board saved before the demo was a service of its own', () => {
  it('lists what it listed then: the provider’s tasks and the demo’s standing in for it', () => {
    for (const provider of PROVIDER_IDS) {
      writtenBefore(`old-${provider}`, `Old ${provider}`, {
        match: 'all',
        items: [{ kind: 'service', provider }],
      });
      // Then: every task whose record names the provider, the demo's in its dialect too.
      expect(listed(`Old ${provider}`), provider).toEqual(
        ofRecords((record) => providerOf(record) === provider),
      );
    }
    expect(listed('Old pictor')).toEqual(['demo', 'own']);
    expect(listed('Old fal')).toEqual(['demo-fal', 'fal']);
  });

  it('says so beside the service, and keeps its form through a rename and a board’s move', () => {
    const rules = { match: 'all', items: [{ kind: 'service', provider: 'pictor' }] };
    writtenBefore('old', 'Old', rules);
    const entry = core.smartBoards.get('old');
    expect(entry.problem).toBeUndefined();
    expect(entry.rules).toEqual(rules);
    core.smartBoards.rename('Old', 'Older');
    core.boards.create('Clients');
    core.boards.rename('Clients', 'Customers');
    expect(stored('Older')).toEqual(rules);
    expect(listed('Older')).toEqual(['demo', 'own']);
  });

  it('with `demo` (a build that had the demo apart) lists the demo’s tasks', () => {
    writtenBefore('d', 'Demo', { match: 'all', items: [{ kind: 'service', provider: 'demo' }] });
    expect(listed('Demo')).toEqual(['demo', 'demo-fal']);
  });
});

describe('a smart board saved now', () => {
  it('names the service as the filter it was saved from does, every service', () => {
    for (const service of SERVICE_IDS) {
      const rules = rulesFromFilter({ provider: service }, 'all') as SmartRules;
      const name = `Now ${service}`;
      core.smartBoards.create(name, rules);
      expect(stored(name), service).toEqual({
        match: 'all',
        items: [{ kind: 'service', service }],
      });
      // What the filter lists, the board lists.
      const filtered = core.history.listImages({ provider: service }).items;
      expect(listed(name), service).toEqual([...new Set(filtered.map((i) => i.localId))].sort());
      expect(listed(name), service).toEqual(ofRecords((record) => serviceIdOf(record) === service));
    }
    expect(listed('Now pictor')).toEqual(['own']);
  });

  it('is read by no older Pictor: it says the rules cannot be read instead of listing the demo’s', () => {
    for (const service of SERVICE_IDS) {
      const rules = rulesFromFilter({ provider: service }, 'all') as SmartRules;
      for (const rule of rules.items) {
        expect(OLDER_SERVICE_RULE.safeParse(rule).success, service).toBe(false);
      }
    }
    // Every board an older Pictor saved is one it reads, and this one too.
    for (const provider of [...PROVIDER_IDS, 'demo'] as ServiceId[]) {
      const rule = { kind: 'service', provider };
      expect(OLDER_SERVICE_RULE.safeParse(rule).success).toBe(true);
      expect(checkSmartRules({ match: 'all', items: [rule] }).ok).toBe(true);
    }
  });

  it('holds one form, never both or neither', () => {
    for (const rule of [
      { kind: 'service', service: 'pictor', provider: 'pictor' },
      { kind: 'service' },
      { kind: 'service', service: 'evil' },
    ]) {
      const checked = checkSmartRules({ match: 'all', items: [rule] });
      expect(checked.ok ? 'read' : englishText(checked.problem)).toBe(
        'Rule 1 of the smart board is not one Pictor can read.',
      );
    }
  });
});
