/**
 * The key never reaches another program's environment. The `pictor` command (and the app) asks
 * the session bus whether a Secret Service runs before anything else (adapters/linux-secret-service.ts),
 * with dbus-send or busctl as child processes; the command's own environment then holds
 * SERVICE_API_KEY and any PICTOR_KEY_*. Real child processes: stand-ins for both tools, first on a
 * PATH of their own, each writing the environment it was given to a file. POSIX only (the tools
 * are shell scripts; the probe runs on Linux alone).
 */
import { spawnSync } from 'node:child_process';
import { chmod, readFile, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { secretServiceRunning } from '../../../electron/adapters/linux-secret-service';
import { removeFolder, tempFolder } from '../../support/temp-folders';

let dir: string;
beforeEach(async () => {
  dir = await tempFolder('probe-env');
});
afterEach(() => removeFolder(dir));

/** A stand-in `tool` that records its environment in `<dir>/<tool>.env` and answers `reply`. */
async function standIn(tool: string, reply: string, status = 0): Promise<string> {
  const record = join(dir, `${tool}.env`);
  const script = join(dir, tool);
  await writeFile(script, `#!/bin/sh\nenv > '${record}'\necho '${reply}'\nexit ${status}\n`);
  await chmod(script, 0o700);
  return record;
}

const KEYS = {
  SERVICE_API_KEY: 'sk-probe-service-5b1e7c',
  PICTOR_KEY_FAL: 'fal-probe-key-93d0aa',
  PICTOR_KEY_SOMEDAY: 'someday-probe-key-1f2e',
};

describe.skipIf(process.platform === 'win32')('the Secret Service probe’s environment', () => {
  it('gives neither tool a key, nor any variable the bus does not need', async () => {
    // dbus-send fails, so busctl is asked too: both tools' environments are seen.
    const dbusSend = await standIn('dbus-send', 'no answer', 1);
    const busctl = await standIn('busctl', 'b true');
    const env = {
      PATH: `${dir}:/usr/bin:/bin`,
      HOME: dir,
      DBUS_SESSION_BUS_ADDRESS: 'unix:path=/nonexistent/bus',
      XDG_RUNTIME_DIR: dir,
      ...KEYS,
      AWS_SECRET_ACCESS_KEY: 'aws-probe-secret-77',
    };
    expect(secretServiceRunning(spawnSync, env)).toBe(true);
    for (const record of [dbusSend, busctl]) {
      const seen = await readFile(record, 'utf8');
      expect(seen).toContain('DBUS_SESSION_BUS_ADDRESS=unix:path=/nonexistent/bus');
      expect(seen).toContain(`XDG_RUNTIME_DIR=${dir}`);
      for (const secret of [...Object.values(KEYS), 'aws-probe-secret-77']) {
        expect([record, seen.includes(secret)]).toEqual([record, false]);
      }
    }
  });
});
