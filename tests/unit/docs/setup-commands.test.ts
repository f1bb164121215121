/**
 * The README's "Two commands" are what CI runs on a clean clone: `.ci/run` installs with the
 * README's install command and then runs its test command, and the app's row installs the same
 * way. The README once said `npm install` while CI ran `npm ci` (the lockfile's exact tree, which
 * the tests were run against), so a fresh machine did not get what CI tested.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { describe, expect, it } from 'vitest';
import { REPO_ROOT } from '../../support/source-files';

/** The command of the "Two commands" table's row `what`, split at `&&`. */
function rowCommands(readme: string, what: string): string[] {
  const row = readme.split('\n').find((line) => line.startsWith(`| ${what} `));
  const command = /`([^`]+)`/.exec(row ?? '')?.[1] ?? '';
  return command
    .split('&&')
    .map((part) => part.trim())
    .filter(Boolean);
}

/**
 * The npm commands `.ci/run` runs on the project, in order: its comments and quoted text (what
 * it echoes) left out, and an install into another folder (`--prefix`: Node's own) too.
 */
function ciNpmCommands(script: string): string[] {
  return script
    .split('\n')
    .filter((line) => !line.trimStart().startsWith('#') && !line.includes('--prefix'))
    .map((line) => line.replace(/"[^"]*"|'[^']*'/g, '""'))
    .flatMap((line) =>
      [...line.matchAll(/\bnpm (?:ci|install|test|start)\b/g)].map(([word]) => word),
    );
}

describe("the README's two commands", () => {
  const readme = readFileSync(join(REPO_ROOT, 'README.md'), 'utf8');
  const script = readFileSync(join(REPO_ROOT, '.ci/run'), 'utf8');

  it('are the install and the test command CI runs on a clean clone, in that order', () => {
    const test = rowCommands(readme, 'Run every test');
    const app = rowCommands(readme, 'Run the app');
    expect(test).toHaveLength(2);
    expect(ciNpmCommands(script)).toEqual(test);
    expect(app).toEqual([test[0], 'npm start']);
  });

  it('are read as written', () => {
    const page =
      '| Run every test | `npm install && npm test` |\n| Run the app | `npm ci && npm start` |';
    expect(rowCommands(page, 'Run every test')).toEqual(['npm install', 'npm test']);
    expect(rowCommands(page, 'Run the app')).toEqual(['npm ci', 'npm start']);
    expect(
      ciNpmCommands(
        '# npm install first\nnpm install --prefix "$p" node\nif ! npm ci --no-audit; then\n  echo "ci: npm ci failed"\ntimeout "9m" npm test\n',
      ),
    ).toEqual(['npm ci', 'npm test']);
  });
});
