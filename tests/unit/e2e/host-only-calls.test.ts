/**
 * The journeys read what only one host records only where that host runs
 * (tests/support/host-only-calls.ts): every spec passes, and the lint fails the uses it exists to
 * catch, journey 17's unguarded poll of a reveal under a host that records no OS call among them.
 */
import { readdir, readFile } from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { RECORDED_ON_EVERY_HOST } from '../../e2e/harness/app-types';
import { unguardedHostOnlyCalls } from '../../support/host-only-calls';

const SPECS = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../e2e/specs');

describe('host-only records in the journeys', () => {
  it('are read only behind a host guard, in a spec scoped to that host, or for an action both hosts record', async () => {
    const files = (await readdir(SPECS)).filter((name) => name.endsWith('.spec.ts'));
    expect(files.length).toBeGreaterThan(10);
    const found = [];
    for (const file of files) {
      const text = await readFile(path.join(SPECS, file), 'utf8');
      found.push(...unguardedHostOnlyCalls(text, file, RECORDED_ON_EVERY_HOST));
    }
    expect(found).toEqual([]);
  });
});

describe('the lint', () => {
  it('fails journey 17’s poll of a reveal when the other host records no OS call', async () => {
    const text = await readFile(path.join(SPECS, '17-gallery-basics.spec.ts'), 'utf8');
    expect(unguardedHostOnlyCalls(text, '17', [])).toEqual([
      { file: '17', line: expect.any(Number), call: 'osCalls' },
    ]);
  });

  it.each([
    ['an unguarded ipcPayloads()', 'expect(app.ipcPayloads()).toEqual([]);', 1],
    [
      'osCalls() of a chromium-only action',
      "expect(app.osCalls().filter((c) => c.action === 'saveAs')).toHaveLength(1);",
      1,
    ],
    ['osCalls() unfiltered', 'expect(app.osCalls()).toContainEqual(call);', 1],
    ['an unguarded advanceClock()', 'app.advanceClock(60_000);', 1],
    ['a guarded advanceClock()', "if (app.host === 'chromium') app.advanceClock(60_000);", 0],
    [
      'a guard on the other host',
      "if (app.host === 'electron') expect(app.ipcPayloads()).toEqual([]);",
      1,
    ],
    ['a use in the else branch', "if (app.host === 'chromium') {} else { app.ipcPayloads(); }", 1],
    ['a guarded use', "if (app.host === 'chromium') { expect(app.ipcPayloads()).toEqual([]); }", 0],
    [
      'a guarded one-liner',
      "if (session.app.host === 'chromium') expect(app.osCalls()).toEqual([]);",
      0,
    ],
    [
      'an action both hosts record',
      "expect(app.osCalls().filter((c) => c.action === 'trash')).toEqual([]);",
      0,
    ],
    [
      'a chromium-scoped spec',
      "test.skip(\n  hostName() !== 'chromium',\n  'why',\n);\napp.ipcPayloads();",
      0,
    ],
  ])('%s', (_what, text, count) => {
    expect(unguardedHostOnlyCalls(text, 'x.spec.ts', RECORDED_ON_EVERY_HOST)).toHaveLength(count);
  });
});
