/**
 * `npm run ci:actionlint`: GitHub Actions' own linter (rhysd/actionlint: expressions, contexts,
 * runner labels, `needs`, shellcheck over `run:` where shellcheck is installed) over
 * .github/workflows. It is a Go program: neither npm nor Debian's archive carries it (npm has only
 * WebAssembly builds of old versions, which do not know every hosted runner label), so this finds
 * `actionlint` (in .cache/actionlint/, or on PATH) and, where it is missing and Go is installed
 * (GitHub's runners have it), installs the pinned version into .cache/actionlint/ first. The
 * workflow test (tests/packaging/workflows.test.ts) runs the same binary whenever it is present.
 */
import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { fileURLToPath, pathToFileURL } from 'node:url';
import { ciArgsOrExit } from './ci-args.mjs';

/** The version installed when there is none. */
const ACTIONLINT_VERSION = 'v1.7.12';

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..');
const CACHE = path.join(ROOT, '.cache', 'actionlint');
const EXE = process.platform === 'win32' ? 'actionlint.exe' : 'actionlint';

/** The actionlint to run: the cached one, else one on PATH that answers; null when none does. */
export function findActionlint(): string | null {
  const cached = path.join(CACHE, EXE);
  if (existsSync(cached)) return cached;
  const probe = spawnSync('actionlint', ['-version'], { encoding: 'utf8' });
  return probe.status === 0 ? 'actionlint' : null;
}

/** Runs actionlint over the repository's workflows: its exit code and what it printed. */
export function runActionlint(binary: string): { code: number | null; output: string } {
  const result = spawnSync(binary, ['-no-color'], { cwd: ROOT, encoding: 'utf8' });
  return { code: result.status, output: `${result.stdout ?? ''}${result.stderr ?? ''}` };
}

function install(): string | null {
  if (spawnSync('go', ['version']).status !== 0) return null;
  console.log(`actionlint: installing ${ACTIONLINT_VERSION} with Go into .cache/actionlint`);
  const result = spawnSync(
    'go',
    ['install', `github.com/rhysd/actionlint/cmd/actionlint@${ACTIONLINT_VERSION}`],
    { stdio: 'inherit', env: { ...process.env, GOBIN: CACHE } },
  );
  return result.status === 0 ? path.join(CACHE, EXE) : null;
}

function main(): number {
  ciArgsOrExit(
    { name: 'ci:actionlint', usage: 'npm run ci:actionlint', options: {} },
    process.argv.slice(2),
  );
  const binary = findActionlint() ?? install();
  if (!binary) {
    console.error('actionlint: FAILED: not found, and no Go to install it with');
    return 1;
  }
  const { code, output } = runActionlint(binary);
  if (output.trim()) console.log(output.trim());
  console.log(code === 0 ? 'actionlint: no findings' : `actionlint: FAILED (exit ${String(code)})`);
  return code ?? 1;
}

const invokedDirectly =
  process.argv[1] !== undefined && import.meta.url === pathToFileURL(process.argv[1]).href;
if (invokedDirectly) process.exitCode = main();
