/**
 * docs/ARCHITECTURE.md names who calls the app's one wiring (`wireApp`): the files it names are
 * the ones in the product and the end-to-end harness that call it, no more and no fewer, so the
 * page cannot keep naming a composition root that no longer does the wiring.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT, repositoryFiles } from '../../support/source-files';

const WIRING = 'electron/ipc/wire-app.ts';

/** Files of the product and of the end-to-end harness that call wireApp. */
function callers(): string[] {
  return repositoryFiles(['electron', 'tests/e2e'], /\.ts$/)
    .filter(
      (file) => file !== WIRING && readFileSync(join(REPO_ROOT, file), 'utf8').includes('wireApp('),
    )
    .sort();
}

describe("ARCHITECTURE.md's wiring row", () => {
  it('names exactly the files that call wireApp', () => {
    const page = readFileSync(join(REPO_ROOT, 'docs/ARCHITECTURE.md'), 'utf8');
    const row = page.split('\n').find((line) => line.startsWith(`| \`${WIRING}\``));
    expect(row, 'the layering table has a row for wire-app.ts').toBeDefined();
    const named = [...row!.matchAll(/`([^`]+\.ts)`/g)]
      .map(([, file]) => file!)
      .filter((file) => file !== WIRING)
      .sort();
    expect(callers()).toEqual(['electron/host/desktop-start.ts', 'tests/e2e/harness/node-main.ts']);
    expect(named).toEqual(callers());
  });
});
