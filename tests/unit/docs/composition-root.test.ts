/**
 * docs/ARCHITECTURE.md names who calls the app's one wiring (`wireApp`): the files it names are
 * the ones in the product and the end-to-end harness that call it, no more and no fewer, so the
 * page cannot keep naming a composition root that no longer does the wiring.
 */
import { readFileSync, readdirSync } from 'node:fs';
import { join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const root = fileURLToPath(new URL('../../..', import.meta.url));
const WIRING = 'electron/ipc/wire-app.ts';

/** The .ts files under `folder`, relative to the root with `/`. */
function sources(folder: string): string[] {
  return readdirSync(join(root, folder), { recursive: true, encoding: 'utf8' })
    .filter((file) => file.endsWith('.ts'))
    .map((file) =>
      relative(root, join(root, folder, file))
        .split('\\')
        .join('/'),
    );
}

/** Files of the product and of the end-to-end harness that call wireApp. */
function callers(): string[] {
  return [...sources('electron'), ...sources('tests/e2e')]
    .filter(
      (file) => file !== WIRING && readFileSync(join(root, file), 'utf8').includes('wireApp('),
    )
    .sort();
}

describe("ARCHITECTURE.md's wiring row", () => {
  it('names exactly the files that call wireApp', () => {
    const page = readFileSync(join(root, 'docs/ARCHITECTURE.md'), 'utf8');
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
