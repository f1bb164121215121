/**
 * A library the CLI cannot use (not a database, from a newer Pictor) is not a usage error: exit
 * 5 with a sentence saying what happened, and the file is left as it was. Exit 2 stays a usage
 * error only.
 */
import { randomBytes } from 'node:crypto';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { DatabaseSync } from 'node:sqlite';
import { describe, expect, it } from 'vitest';
import { HISTORY_FILE } from '../../../electron/core/pictor-core';
import { expectExit, useCliWorlds } from './cli-harness';

const newWorld = useCliWorlds();

describe('a history the CLI cannot use', () => {
  it('not a database: list exits 5 with a sentence, the file untouched', async () => {
    const world = await newWorld();
    const file = join(world.dataDir, HISTORY_FILE);
    const bytes = randomBytes(8_192);
    writeFileSync(file, bytes);
    const run = await world.run(['list']);
    expectExit(run, 5);
    expect(run.stderr).toMatch(/is not a Pictor history database.*move it aside/);
    expect(run.stderr).not.toMatch(/help/);
    expect(readFileSync(file).equals(bytes)).toBe(true);
  });

  it('from a newer Pictor: generate exits 5 before sending anything', async () => {
    const world = await newWorld();
    const db = new DatabaseSync(join(world.dataDir, HISTORY_FILE));
    db.exec('PRAGMA user_version = 99');
    db.close();
    const run = await world.run(['generate', '--prompt', 'a lighthouse']);
    expectExit(run, 5);
    expect(run.stderr).toMatch(/newer version of Pictor/);
    expect(world.service.submits()).toEqual([]);
  });
});
