/**
 * What counts as a use of a product export (tests/support/dead-exports.ts), on a small project
 * of its own: a core module's face passes exports on (`export { x } from './x'`) and uses
 * nothing itself, so an export that only the face and tests name is dead, and one a front
 * imports through the face is alive.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { findDeadExports } from '../../support/dead-exports';
import { removeFolderSync, tempFolderSync } from '../../support/temp-folders';

let root = '';

function write(file: string, text: string): void {
  mkdirSync(dirname(join(root, file)), { recursive: true });
  writeFileSync(join(root, file), text);
}

beforeEach(() => {
  root = tempFolderSync('dead-faces');
  write('tsconfig.json', JSON.stringify({ include: ['electron', 'tests'] }));
  write('electron/core/m/x.ts', 'export const used = 1;\nexport const onlyTests = 2;\n');
  write('electron/core/m/index.ts', "export { onlyTests, used } from './x';\n");
  write('electron/ipc/h.ts', "import { used } from '../core/m';\nexport const h = () => used;\n");
  write('tests/t.test.ts', "import { onlyTests } from '../electron/core/m';\nvoid onlyTests;\n");
});
afterEach(() => removeFolderSync(root));

describe('a use of an export', () => {
  it('is not its re-export by a face: what only the face and tests name is dead', () => {
    const dead = findDeadExports(root).filter((found) => found.id.startsWith('electron/core/'));
    expect(dead).toEqual([{ id: 'electron/core/m/x.ts#onlyTests', kind: 'tests-only' }]);
  });
});
