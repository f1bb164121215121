/**
 * A core opened in a test on a clock of its own (a manual clock: the test moves time) names what
 * its loopback-owner gate reads (`localServers`, usually tests/support/owners-unread.ts). Unnamed,
 * the gate reads this host's socket tables before every request to a loopback address: 20–50 ms
 * of REAL time during which the test's clock runs on, so a request reaches the service later on
 * that clock than the engine sent it (a poll cadence read 2,900 ms against ≥ 3,000 on a fresh
 * clone). A core on a clock of its own that wants the real read says so (`localServers: {}`).
 * This test finds an `openPictorCore({ … clock … })` in tests/** that does not.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, repositoryFiles, repositoryPath } from '../../support/source-files';

/** The clock that runs on its own: a core on it needs no word about the gate. */
const REAL_CLOCK = 'systemClock';

function propertyNamed(literal: ts.ObjectLiteralExpression, name: string) {
  return literal.properties.find(
    (property) =>
      (ts.isPropertyAssignment(property) || ts.isShorthandPropertyAssignment(property)) &&
      ts.isIdentifier(property.name) &&
      property.name.text === name,
  );
}

/** Whether `options` sets a clock of its own and leaves its gate unnamed. */
function leavesGateUnnamed(options: ts.ObjectLiteralExpression): boolean {
  const clock = propertyNamed(options, 'clock');
  const ownClock =
    clock !== undefined &&
    !(
      ts.isPropertyAssignment(clock) &&
      ts.isIdentifier(clock.initializer) &&
      clock.initializer.text === REAL_CLOCK
    );
  return ownClock && propertyNamed(options, 'localServers') === undefined;
}

/**
 * The runtime's options a call or a harness property carries: `AppRuntime.start({…})`,
 * `startTestRuntime(dir, {…})`, `testRuntimeOptions(dir, {…})` and a wired harness's
 * `runtime: () => ({…})`. An AppRuntime always reaches a loopback server (its built-in demo
 * service), so one on a clock of its own names its gate as a core does.
 */
function runtimeOptions(node: ts.Node): ts.Expression | undefined {
  if (ts.isCallExpression(node)) {
    const callee = node.expression;
    if (
      ts.isPropertyAccessExpression(callee) &&
      ts.isIdentifier(callee.expression) &&
      callee.expression.text === 'AppRuntime' &&
      callee.name.text === 'start'
    )
      return node.arguments[0];
    if (
      ts.isIdentifier(callee) &&
      (callee.text === 'startTestRuntime' || callee.text === 'testRuntimeOptions')
    )
      return node.arguments[1];
  }
  if (
    ts.isPropertyAssignment(node) &&
    ts.isIdentifier(node.name) &&
    node.name.text === 'runtime' &&
    (ts.isArrowFunction(node.initializer) || ts.isFunctionExpression(node.initializer))
  ) {
    let body: ts.Node = node.initializer.body;
    // A block body: what its last statement returns.
    if (ts.isBlock(body)) {
      const last = body.statements.at(-1);
      if (last === undefined || !ts.isReturnStatement(last) || last.expression === undefined)
        return undefined;
      body = last.expression;
    }
    while (ts.isParenthesizedExpression(body)) body = body.expression;
    if (ts.isObjectLiteralExpression(body)) return body;
  }
  return undefined;
}

/**
 * Each core or app runtime in `text` on a clock of its own without `localServers`, by line:
 * `openPictorCore(…)` (whose options must be a literal, to be judged) and the runtime's options
 * ({@link runtimeOptions}; judged where written as a literal).
 */
function unnamedGates(text: string, file = 'sample.ts'): number[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: number[] = [];
  const visit = (node: ts.Node): void => {
    const line = () => source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'openPictorCore'
    ) {
      const [options] = node.arguments;
      if (options === undefined || !ts.isObjectLiteralExpression(options)) found.push(line());
      else if (leavesGateUnnamed(options)) found.push(line());
    }
    const runtime = runtimeOptions(node);
    if (
      runtime !== undefined &&
      ts.isObjectLiteralExpression(runtime) &&
      leavesGateUnnamed(runtime)
    )
      found.push(line());
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The TypeScript files under tests/, but this one (whose samples name what it looks for). */
function testSources(): string[] {
  const self = repositoryPath(import.meta.url);
  return repositoryFiles(['tests'], /\.tsx?$/).filter((file) => file !== self);
}

describe('a core a test opens on a clock of its own', () => {
  it('recognises one that leaves its gate unnamed, and leaves the others alone', () => {
    for (const text of [
      'await openPictorCore({ dataDir, clock, fetch });',
      'await openPictorCore({ dataDir, clock: new ManualClock(1), ...bundledCoreWorkers() });',
      'await openPictorCore({ clock: options.clock ?? systemClock });',
      'await openPictorCore(options);',
      'await AppRuntime.start({ ...base, clock: new ManualClock() });',
      'await startTestRuntime(dir, { clock });',
      'const options = testRuntimeOptions(dir, { clock: driver.coreClock });',
      "await wiredIpc(cleanups, { prefix: 'p-', runtime: () => ({ clock, prompts }) });",
      'await wiredIpc(cleanups, { runtime: (os, dir) => ({ clock: new ManualClock(), dataDir: dir }) });',
      'await wiredIpc(cleanups, { runtime: () => { const quota = 1; return { clock, quota }; } });',
    ]) {
      expect(unnamedGates(text), text).toEqual([1]);
    }
    for (const text of [
      'await openPictorCore({ dataDir, fetch });',
      'await openPictorCore({ dataDir, clock: systemClock });',
      'await openPictorCore({ clock, localServers: OWNERS_UNREAD });',
      'await openPictorCore({ clock: new ManualClock(), localServers: setup.localServers ?? OWNERS_UNREAD });',
      'await openPictorCore({ clock, localServers: {} });',
      'await openOther({ clock });',
      'await AppRuntime.start(options);',
      'await startTestRuntime(dir, { clock: systemClock });',
      'await startTestRuntime(dir, { clock, localServers: OWNERS_UNREAD });',
      'await wiredIpc(cleanups, { runtime: () => ({ clock, localServers: OWNERS_UNREAD }) });',
      'await wiredIpc(cleanups, { runtime: () => ({ inputQuota }) });',
    ]) {
      expect(unnamedGates(text), text).toEqual([]);
    }
  });

  it('names what its loopback-owner gate reads (tests/support/owners-unread.ts)', () => {
    const files = testSources().filter((file) =>
      /openPictorCore\(|AppRuntime\.start\(|startTestRuntime\(|testRuntimeOptions\(|runtime: \(/.test(
        readFileSync(join(REPO_ROOT, file), 'utf8'),
      ),
    );
    // The takeover cadence suite is one: the check finds what it looks for.
    expect(files).toContain('tests/integration/core/poll-cadence-takeover.test.ts');
    // And a whole app on a manual clock (its demo service is on loopback).
    expect(files).toContain('tests/hardening/hostile/key-question-fatigue.test.ts');
    const unnamed = files.flatMap((file) =>
      unnamedGates(readFileSync(join(REPO_ROOT, file), 'utf8'), file).map(
        (line) => `${file}:${line}`,
      ),
    );
    expect(unnamed).toEqual([]);
  });
});
