/**
 * The unit files that share their modules within a thread (vitest.config.ts) are told apart from
 * the ones that need their own by their text (tests/support/module-isolation.ts): each way of
 * changing what a later file would see is recognised, and reads and restores are left alone.
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import {
  fileScans,
  filesNeedingOwnProcess,
  needsOwnModules,
  needsOwnProcess,
  rendererNeedsOwnModules,
  runsMainSide,
  withOwnHelpers,
} from '../../support/module-isolation';
// The texts shown to the scanner, kept out of this file: as its own text they would make the
// scanner take this file for one that needs its own modules, and run it in a fresh thread.
import samples from './isolation-samples.json';
import { REPO_ROOT, repositoryFiles } from '../../support/source-files';
import { removeFolderSync, tempFolderSync } from '../../support/temp-folders';

describe('a file that needs modules of its own', () => {
  it.each(samples.ownModules.recognised)('is recognised by %s', (text) => {
    expect(needsOwnModules(text)).toBe(true);
  });

  it.each(samples.ownModules.notOnes)('is not one for %s', (text) => {
    expect(needsOwnModules(text)).toBe(false);
  });
});

describe('an integration or hardening file that needs a process of its own', () => {
  it.each(samples.ownProcess.recognised)('is recognised by %s', (text) => {
    expect(needsOwnProcess(text)).toBe(true);
  });

  it.each(samples.ownProcess.notOnes)('is not one for %s', (text) => {
    expect(needsOwnProcess(text)).toBe(false);
  });
});

describe('a renderer file over the real main side', () => {
  it.each([
    'await startWiredApp({ prepare });',
    'const main = await startWiredApi();',
    'const fileMain = sharedWiredMain();',
    'const renderWired = wiredGallery();',
  ])('is recognised by %s', (text) => {
    expect(runsMainSide(text)).toBe(true);
  });

  it('is not one that renders over the fake', () => {
    expect(runsMainSide('await startApp({ prepare: (fake) => fake.seedTasks(3) });')).toBe(false);
  });

  it.each(samples.renderer.undoneBySetup)(
    'shares its thread when it only does what the setup undoes after every test: %s',
    (text) => {
      expect(needsOwnModules(text)).toBe(true);
      expect(rendererNeedsOwnModules(text)).toBe(false);
    },
  );

  it.each(samples.renderer.notUndone)(
    'needs its own modules for what the setup does not undo: %s',
    (text) => {
      expect(rendererNeedsOwnModules(text)).toBe(true);
    },
  );
});

describe("a file's own helpers", () => {
  it("are read with it, theirs in turn, and the product's modules are not", () => {
    const dir = tempFolderSync('helpers');
    try {
      mkdirSync(join(dir, 'tests/unit'), { recursive: true });
      mkdirSync(join(dir, 'renderer'));
      writeFileSync(join(dir, 'renderer/page.ts'), samples.helpers.productGlobal);
      writeFileSync(
        join(dir, 'tests/unit/plain.test.ts'),
        "import { page } from '../../renderer/page';\n",
      );
      writeFileSync(join(dir, 'tests/unit/a.test.ts'), "import { a } from './helper-a';\n");
      writeFileSync(join(dir, 'tests/unit/helper-a.ts'), "import { b } from './helper-b';\n");
      writeFileSync(join(dir, 'tests/unit/helper-b.tsx'), samples.helpers.helperGlobal);
      const tests = join(dir, 'tests');
      expect(needsOwnModules(readFileSync(join(dir, 'tests/unit/a.test.ts'), 'utf8'))).toBe(false);
      expect(needsOwnModules(withOwnHelpers(tests, join(dir, 'tests/unit/a.test.ts')))).toBe(true);
      expect(needsOwnModules(withOwnHelpers(tests, join(dir, 'tests/unit/plain.test.ts')))).toBe(
        false,
      );
    } finally {
      removeFolderSync(dir);
    }
  });

  it('are read once for the classifications that share a FileScans, and afresh without one', () => {
    const dir = tempFolderSync('helpers');
    try {
      mkdirSync(join(dir, 'tests/hardening'), { recursive: true });
      const helper = join(dir, 'tests/hardening/helper.ts');
      writeFileSync(helper, samples.helpers.helperGlobal);
      for (const name of ['a.test.ts', 'b.test.ts']) {
        writeFileSync(join(dir, 'tests/hardening', name), "import { h } from './helper';\n");
      }
      const both = ['tests/hardening/a.test.ts', 'tests/hardening/b.test.ts'];
      const scans = fileScans();
      expect(filesNeedingOwnProcess(dir, 'tests/hardening', scans)).toEqual(both);
      // The helper no longer changes anything: the shared scans kept the text they read (each
      // file is read once for them), a classification of its own reads it again.
      writeFileSync(helper, 'export const h = 1;\n');
      expect(filesNeedingOwnProcess(dir, 'tests/hardening', scans)).toEqual(both);
      expect(filesNeedingOwnProcess(dir, 'tests/hardening')).toEqual([]);
      expect(scans.texts.get(helper)).toBe(samples.helpers.helperGlobal);
    } finally {
      removeFolderSync(dir);
    }
  });

  it('leave out only the helper whose changes are undone after each test, not a copy of it', () => {
    const dir = tempFolderSync('helpers');
    try {
      mkdirSync(join(dir, 'tests/support'), { recursive: true });
      mkdirSync(join(dir, 'tests/hardening'));
      // Each raw change the scanner knows, as the helper's own text (it makes them) and a copy's.
      const raw = samples.ownProcess.recognised.join('\n');
      writeFileSync(join(dir, 'tests/support/undone-after-test.ts'), raw);
      writeFileSync(join(dir, 'tests/support/copy-of-it.ts'), raw);
      const file = (name: string, text: string): string => {
        writeFileSync(join(dir, 'tests/hardening', name), text);
        return withOwnHelpers(join(dir, 'tests'), join(dir, 'tests/hardening', name));
      };
      const through = "import { setEnvForTest } from '../support/undone-after-test';\n";
      expect(needsOwnProcess(file('through.test.ts', through))).toBe(false);
      expect(
        needsOwnProcess(file('copy.test.ts', "import { x } from '../support/copy-of-it';\n")),
      ).toBe(true);
      for (const change of samples.ownProcess.recognised) {
        expect(needsOwnProcess(file('both.test.ts', `${through}${change}\n`)), change).toBe(true);
      }
    } finally {
      removeFolderSync(dir);
    }
  });

  it('attach no hook when imported: a shared worker evaluates a helper once, for its first file', () => {
    // The setup files run again for every file (vitest.config.ts `setupFiles`); a helper registers
    // what it ends after each test with tests/support/after-each-test.ts instead.
    const setupFiles = [
      'tests/unit/renderer/setup.ts',
      'tests/support/stall-watchdog-setup.ts',
      'tests/support/end-each-test-setup.ts',
    ];
    const helpers = repositoryFiles(
      ['tests/unit', 'tests/support', 'tests/integration', 'tests/hardening'],
      /\.tsx?$/,
    ).filter((file) => !/\.test\.tsx?$/.test(file) && !setupFiles.includes(file));
    expect(helpers.length).toBeGreaterThan(20);
    const hooking = helpers.filter((file) =>
      /^(?:afterEach|beforeEach|afterAll|beforeAll)\(/m.test(
        readFileSync(join(REPO_ROOT, file), 'utf8'),
      ),
    );
    expect(hooking).toEqual([]);
  });
});
