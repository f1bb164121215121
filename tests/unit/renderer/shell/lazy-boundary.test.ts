/**
 * What the first screen does not show stays out of the entry bundle: no file the page's entry
 * (renderer/main.tsx) reaches through static imports belongs to a part loaded when opened
 * (shell/lazy-parts.tsx): the Gallery and its viewer, Compare, the edit dialog and its mask
 * editor, Costs, Settings and the template manager. One static import of any of their files pulls
 * it, and everything it imports, back into the entry (the bench's "Renderer bundle" row).
 */
import { existsSync, readFileSync, statSync } from 'node:fs';
import { dirname, join, relative, resolve } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../../support/source-files';

/** Static imports and re-exports that stay in the output: not `import type`, not `import()`. */
const STATIC = /^\s*(?:import|export)\s+(?!type\b)(?:[^'";]*?\bfrom\s+)?['"](\.[^'"]+)['"]/gm;

/** The parts loaded when opened: folders (ending in `/`) or single files, from renderer/. */
const LAZY = [
  'renderer/features/gallery/',
  'renderer/features/compare/',
  'renderer/features/edit/',
  'renderer/features/costs/',
  'renderer/features/settings/',
  'renderer/features/compose/template-manager.tsx',
  'renderer/features/compose/template-editor-help.tsx',
];

function sourceOf(target: string): string | null {
  const candidates = [target, `${target}.ts`, `${target}.tsx`, join(target, 'index.ts')];
  const found = candidates.find((path) => existsSync(path) && statSync(path).isFile());
  return found !== undefined && /\.tsx?$/.test(found) ? found : null;
}

/** Every file `entry` reaches through static imports, with the import chain that reached it. */
function staticallyReached(entry: string): Map<string, string[]> {
  const reached = new Map<string, string[]>([[entry, [entry]]]);
  const queue = [entry];
  for (let file = queue.shift(); file !== undefined; file = queue.shift()) {
    const chain = reached.get(file) ?? [];
    for (const [, spec] of readFileSync(file, 'utf8').matchAll(STATIC)) {
      const target = sourceOf(resolve(dirname(file), spec ?? ''));
      if (target === null || reached.has(target)) continue;
      reached.set(target, [...chain, target]);
      queue.push(target);
    }
  }
  return reached;
}

function isLazy(file: string): boolean {
  const path = relative(REPO_ROOT, file).split('\\').join('/');
  return LAZY.some((part) => (part.endsWith('/') ? path.startsWith(part) : path === part));
}

describe('the entry bundle', () => {
  it('reaches none of the parts loaded when opened', () => {
    const reached = staticallyReached(join(REPO_ROOT, 'renderer/main.tsx'));
    const pulled = [...reached]
      .filter(([file]) => isLazy(file))
      .map(([, chain]) => chain.map((file) => relative(REPO_ROOT, file)).join(' → '));
    expect(pulled).toEqual([]);
    // The walk itself works: the first screen's own files are found.
    expect(reached.has(join(REPO_ROOT, 'renderer/features/tasks/tasks-view.tsx'))).toBe(true);
    expect(reached.has(join(REPO_ROOT, 'renderer/features/compose/compose-form.tsx'))).toBe(true);
  });

  it('loads each of those parts through the lazy table', () => {
    const table = readFileSync(join(REPO_ROOT, 'renderer/shell/lazy-parts.tsx'), 'utf8');
    for (const part of ['gallery', 'compare', 'edit', 'costs', 'settings']) {
      expect(table).toContain(`import('../features/${part}/`);
    }
  });
});
