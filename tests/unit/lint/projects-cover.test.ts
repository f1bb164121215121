/**
 * Every test file runs, once, where it can: vitest's own answer (its configuration resolved as
 * `npm test` resolves it) puts each `*.test.ts(x)` under tests/ in exactly one project, and a
 * `*.process.test.*` file in a project whose files get a child process each, never a thread
 * (vitest.config.ts says why), and a file that changes what the next file in its thread would see
 * (tests/support/module-isolation.ts) in a project that gives each file fresh modules. A file no
 * project includes would pass by never running: a unit file named for a process of its own did,
 * before the `unit-process` project.
 */
import { readFileSync } from 'node:fs';
import { join, relative } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { createVitest, type TestSpecification } from 'vitest/node';
import {
  needsOwnModules,
  needsOwnProcess,
  rendererNeedsOwnModules,
  runsMainSide,
  withOwnHelpers,
} from '../../support/module-isolation';
import { REPO_ROOT, repositoryFiles } from '../../support/source-files';

const rel = (file: string) => relative(REPO_ROOT, file).split('\\').join('/');

/** The vitest test files in the repository (the journeys are Playwright's `*.spec.ts`). */
function testFiles(): string[] {
  return repositoryFiles(['tests'], /\.test\.tsx?$/);
}

let specs: TestSpecification[] = [];
beforeAll(async () => {
  const vitest = await createVitest('test', { watch: false, root: REPO_ROOT, reporters: [] });
  try {
    specs = await vitest.globTestSpecifications();
  } finally {
    await vitest.close();
  }
}, 60_000);
afterAll(() => {
  specs = [];
});

describe('the vitest projects', () => {
  it('run every test file, each in exactly one project', () => {
    const projects = new Map<string, string[]>();
    for (const spec of specs) {
      const file = rel(spec.moduleId);
      projects.set(file, [...(projects.get(file) ?? []), spec.project.name]);
    }
    const files = testFiles();
    expect(files.length).toBeGreaterThan(400);
    expect(files.filter((file) => !projects.has(file))).toEqual([]);
    expect([...projects].filter(([, names]) => names.length > 1)).toEqual([]);
  });

  it('give a *.process.test file a process of its own, and every other unit file a thread', () => {
    const wrong = specs
      .filter((spec) => rel(spec.moduleId).startsWith('tests/unit/'))
      .filter((spec) => {
        const own = /\.process\.test\.tsx?$/.test(spec.moduleId);
        return (spec.project.config.pool === 'forks') !== own;
      })
      .map((spec) => `${rel(spec.moduleId)} (${spec.project.name}: ${spec.project.config.pool})`);
    expect(wrong).toEqual([]);
    // The time-zone test is one: the check above sees both kinds.
    expect(specs.some((spec) => spec.moduleId.endsWith('time-zone.process.test.ts'))).toBe(true);
  });

  it("run a renderer file over the app's real main side in a thread, never in a VM context", () => {
    const wired = specs.filter((spec) => runsMainSide(readFileSync(spec.moduleId, 'utf8')));
    expect(wired.length).toBeGreaterThan(5);
    const wrong = wired
      .filter((spec) => spec.project.config.pool !== 'threads')
      .map((spec) => `${rel(spec.moduleId)} (${spec.project.name}: ${spec.project.config.pool})`);
    expect(wrong).toEqual([]);
  });

  it('give a file that changes what the next file in its thread would see modules of its own', () => {
    // A VM pool (vitest says isolate: false of it) gives each file a context of its own.
    const shared = specs.filter(
      (spec) => spec.project.config.isolate === false && !spec.project.config.pool.startsWith('vm'),
    );
    // The renderer's setup undoes some of it after every test (rendererNeedsOwnModules).
    const changes = (spec: TestSpecification): boolean =>
      (spec.project.name.startsWith('renderer') ? rendererNeedsOwnModules : needsOwnModules)(
        readFileSync(spec.moduleId, 'utf8'),
      );
    const wrong = shared
      .filter(changes)
      .map((spec) => `${rel(spec.moduleId)} (${spec.project.name})`);
    expect(wrong).toEqual([]);
    // Both kinds exist: most unit files share their modules, the ones that mock electron do not.
    expect(shared.length).toBeGreaterThan(100);
    const isolated = specs.filter((spec) => spec.project.name === 'unit-isolated');
    expect(isolated.map((spec) => rel(spec.moduleId))).toContain(
      'tests/unit/window/window.test.ts',
    );
    expect(isolated.every((spec) => spec.project.config.isolate)).toBe(true);
  });

  it('share a thread between renderer files over the real main side only when no helper they import changes what the next would see', () => {
    const shared = specs.filter((spec) => spec.project.name === 'renderer-wired');
    expect(shared.every((spec) => spec.project.config.isolate === false)).toBe(true);
    expect(shared.length).toBeGreaterThan(30);
    const wrong = shared
      .filter((spec) =>
        rendererNeedsOwnModules(withOwnHelpers(join(REPO_ROOT, 'tests'), spec.moduleId)),
      )
      .map((spec) => rel(spec.moduleId));
    expect(wrong).toEqual([]);
    // The gallery harness gives each test its layout and takes it back after it, and a file that
    // fakes timers or stubs a global within its tests has them undone by the renderer's setup
    // (setup-undo.test.ts): those files share a thread.
    expect(shared.map((spec) => rel(spec.moduleId))).toEqual(
      expect.arrayContaining([
        'tests/unit/renderer/gallery/gallery-grid.test.tsx',
        'tests/unit/renderer/features/task-status.test.tsx',
        'tests/unit/renderer/features/settings.test.tsx',
      ]),
    );
    const isolated = specs.filter((spec) => spec.project.name === 'renderer-wired-isolated');
    expect(isolated.every((spec) => spec.project.config.isolate)).toBe(true);
  });

  it('share a thread between the other renderer files only when no helper they import changes what the next would see', () => {
    const shared = specs.filter((spec) => spec.project.name === 'renderer');
    expect(shared.length).toBeGreaterThan(20);
    expect(
      shared.every(
        (spec) => spec.project.config.isolate === false && spec.project.config.pool === 'threads',
      ),
    ).toBe(true);
    const wrong = shared
      .filter((spec) =>
        rendererNeedsOwnModules(withOwnHelpers(join(REPO_ROOT, 'tests'), spec.moduleId)),
      )
      .map((spec) => rel(spec.moduleId));
    expect(wrong).toEqual([]);
    // zod's configuration is the whole process's: that file runs with modules of its own.
    const isolated = specs.filter((spec) => spec.project.name === 'renderer-isolated');
    expect(isolated.map((spec) => rel(spec.moduleId))).toContain(
      'tests/unit/renderer/zod-jitless.test.ts',
    );
    expect(isolated.every((spec) => spec.project.config.isolate)).toBe(true);
  });

  it('share a child process between integration files only when neither they nor a helper they import change what the next would see', () => {
    const inProject = (name: string) => specs.filter((spec) => spec.project.name === name);
    const shared = inProject('integration');
    expect(shared.length).toBeGreaterThan(100);
    expect(shared.every((spec) => spec.project.config.isolate === false)).toBe(true);
    const wrong = shared
      .filter((spec) => needsOwnProcess(withOwnHelpers(join(REPO_ROOT, 'tests'), spec.moduleId)))
      .map((spec) => rel(spec.moduleId));
    expect(wrong).toEqual([]);
    // The file that changes the working folder, and the one that mocks electron, run isolated.
    const isolated = inProject('integration-isolated');
    expect(isolated.map((spec) => rel(spec.moduleId))).toEqual(
      expect.arrayContaining([
        'tests/integration/cli/no-key-echo.test.ts',
        'tests/integration/main/main-smoke.test.ts',
      ]),
    );
    expect(isolated.every((spec) => spec.project.config.isolate)).toBe(true);
    // Both in child processes: what is the whole process's behaves as when each file had one.
    const pools = new Set([...shared, ...isolated].map((spec) => spec.project.config.pool));
    expect([...pools]).toEqual(['forks']);
  });

  it('share a child process between hardening files only when neither they nor a helper they import change or measure what is the whole process', () => {
    const inProject = (name: string) => specs.filter((spec) => spec.project.name === name);
    const shared = inProject('hardening');
    expect(shared.length).toBeGreaterThan(100);
    expect(shared.every((spec) => spec.project.config.isolate === false)).toBe(true);
    const wrong = shared
      .filter((spec) => needsOwnProcess(withOwnHelpers(join(REPO_ROOT, 'tests'), spec.moduleId)))
      .map((spec) => rel(spec.moduleId));
    expect(wrong).toEqual([]);
    // The file that catches the process's escaped errors (through its fixture), the one that
    // mocks electron, and those that count the process's memory or descriptors run isolated.
    const isolated = inProject('hardening-isolated');
    expect(isolated.map((spec) => rel(spec.moduleId))).toEqual(
      expect.arrayContaining([
        'tests/hardening/filesystem/import-interrupt.test.ts',
        'tests/hardening/hostile/window-title.test.ts',
        'tests/hardening/hostile/streamed-uploads.test.ts',
        'tests/hardening/hostile/metadata-writes-at-once.test.ts',
      ]),
    );
    expect(isolated.every((spec) => spec.project.config.isolate)).toBe(true);
    const pools = new Set([...shared, ...isolated].map((spec) => spec.project.config.pool));
    expect([...pools]).toEqual(['forks']);
    // Both end what a test's helpers started after it, as the integration files do.
    for (const spec of [...shared, ...isolated]) {
      expect(spec.project.config.setupFiles.map(rel)).toContain(
        'tests/support/end-each-test-setup.ts',
      );
    }
  });
});
