/**
 * A core opened in a test on a clock of its own (a manual clock: the test moves time) names what
 * its loopback-owner gate reads (`localServers`, usually tests/support/owners-unread.ts). Unnamed,
 * the gate reads this host's socket tables before every request to a loopback address: 20–50 ms
 * of REAL time during which the test's clock runs on, so a request reaches the service later on
 * that clock than the engine sent it (a poll cadence read 2,900 ms against ≥ 3,000 on a fresh
 * clone). A core on a clock of its own that wants the real read says so (`localServers: {}`).
 * This test finds an `openPictorCore({ … clock … })` in tests/** that does not.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const TESTS = join(root, 'tests');

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

/** Each `openPictorCore(…)` in `text` on a clock of its own without `localServers`, by line. */
function unnamedGates(text: string, file = 'sample.ts'): number[] {
  const source = ts.createSourceFile(file, text, ts.ScriptTarget.Latest, true);
  const found: number[] = [];
  const visit = (node: ts.Node): void => {
    if (
      ts.isCallExpression(node) &&
      ts.isIdentifier(node.expression) &&
      node.expression.text === 'openPictorCore'
    ) {
      const [options] = node.arguments;
      const line = source.getLineAndCharacterOfPosition(node.getStart(source)).line + 1;
      if (options === undefined || !ts.isObjectLiteralExpression(options)) found.push(line);
      else {
        const clock = propertyNamed(options, 'clock');
        const ownClock =
          clock !== undefined &&
          !(
            ts.isPropertyAssignment(clock) &&
            ts.isIdentifier(clock.initializer) &&
            clock.initializer.text === REAL_CLOCK
          );
        if (ownClock && propertyNamed(options, 'localServers') === undefined) found.push(line);
      }
    }
    ts.forEachChild(node, visit);
  };
  visit(source);
  return found;
}

/** The TypeScript files under tests/, but this one (whose samples name what it looks for). */
function testSources(): string[] {
  const self = fileURLToPath(import.meta.url);
  return readdirSync(TESTS, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile() && /\.tsx?$/.test(entry.name))
    .map((entry) => join(entry.parentPath, entry.name))
    .filter((file) => file !== self);
}

describe('a core a test opens on a clock of its own', () => {
  it('recognises one that leaves its gate unnamed, and leaves the others alone', () => {
    for (const text of [
      'await openPictorCore({ dataDir, clock, fetch });',
      'await openPictorCore({ dataDir, clock: new ManualClock(1), ...bundledCoreWorkers() });',
      'await openPictorCore({ clock: options.clock ?? systemClock });',
      'await openPictorCore(options);',
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
    ]) {
      expect(unnamedGates(text), text).toEqual([]);
    }
  });

  it('names what its loopback-owner gate reads (tests/support/owners-unread.ts)', () => {
    const files = testSources().filter((file) =>
      readFileSync(file, 'utf8').includes('openPictorCore('),
    );
    // The takeover cadence suite is one: the check finds what it looks for.
    expect(files.map((file) => relative(root, file).split('\\').join('/'))).toContain(
      'tests/integration/core/poll-cadence-takeover.test.ts',
    );
    const unnamed = files.flatMap((file) =>
      unnamedGates(readFileSync(file, 'utf8'), file).map(
        (line) => `${relative(root, file)}:${line}`,
      ),
    );
    expect(unnamed).toEqual([]);
  });
});
