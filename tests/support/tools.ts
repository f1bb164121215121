/**
 * Outside programs some tests run (exiftool, a POSIX sh, Chromium), found on PATH the way a shell
 * finds them, never at a path one distribution uses. Where a program cannot be had, the tests that
 * need it are skipped with a title that names what is missing, so a run on macOS or Windows says
 * why instead of failing on `ENOENT`.
 */
import { execFileSync } from 'node:child_process';
import { accessSync, constants, statSync } from 'node:fs';
import path from 'node:path';

/** A program looked up on PATH: its path, or why it cannot be used here. */
export interface Tool {
  readonly name: string;
  /** The executable found, or null. */
  readonly path: string | null;
  /** Why the tests that need it are skipped (empty when it was found). */
  readonly missing: string;
}

function isExecutable(file: string, platform: NodeJS.Platform): boolean {
  try {
    if (!statSync(file).isFile()) return false;
    // Windows has no execute bit: an existing file with a PATHEXT extension runs.
    if (platform !== 'win32') accessSync(file, constants.X_OK);
    return true;
  } catch {
    return false;
  }
}

/**
 * The first executable called `name` in `env.PATH` (with each `PATHEXT` extension on Windows),
 * or null.
 */
export function findOnPath(
  name: string,
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): string | null {
  const delimiter = platform === 'win32' ? ';' : ':';
  const searchPath = env['PATH'] ?? env['Path'] ?? '';
  // On Windows only names with a PATHEXT extension run (`exiftool.exe`, `sh.exe`).
  const extensions =
    platform === 'win32' ? (env['PATHEXT'] ?? '.COM;.EXE;.BAT;.CMD').split(';') : [''];
  for (const dir of searchPath.split(delimiter)) {
    if (dir === '') continue;
    for (const extension of extensions) {
      const candidate = path.join(dir, `${name}${extension}`);
      if (isExecutable(candidate, platform)) return candidate;
    }
  }
  return null;
}

/** `name` looked up on PATH now. */
export function tool(name: string, env: NodeJS.ProcessEnv = process.env): Tool {
  const found = findOnPath(name, env);
  return { name, path: found, missing: found ? '' : `${name} is not on PATH` };
}

/**
 * A POSIX `sh` to check shell quoting against. Not on Windows: the `sh` there (MSYS, from Git)
 * rewrites arguments that look like paths before the script sees them, so it would test MSYS,
 * and Pictor's Windows commands go through cmd.exe (resources/windows/pictor.cmd).
 */
export function posixShell(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): Tool {
  if (platform === 'win32')
    return {
      name: 'sh',
      path: null,
      missing: 'no POSIX sh on Windows (MSYS sh rewrites path-like arguments)',
    };
  const found = findOnPath('sh', env, platform);
  return { name: 'sh', path: found, missing: found ? '' : 'sh is not on PATH' };
}

/**
 * `mkfifo`, for the tests that put a named pipe where a file is expected. Not on Windows, whose
 * file systems hold no FIFOs: an MSYS `mkfifo` (Git's) makes an emulation only MSYS programs
 * see as one, so a test would check nothing Pictor meets there.
 */
export function fifoMaker(
  env: NodeJS.ProcessEnv = process.env,
  platform: NodeJS.Platform = process.platform,
): Tool {
  if (platform === 'win32') return { name: 'mkfifo', path: null, missing: 'no FIFOs on Windows' };
  const found = findOnPath('mkfifo', env, platform);
  return { name: 'mkfifo', path: found, missing: found ? '' : 'mkfifo is not on PATH' };
}

/** Makes a FIFO at `path` with {@link fifoMaker}'s `mkfifo` (only in a test skipped without it). */
export function makeFifo(needed: Tool, path: string): void {
  execFileSync(pathOf(needed), [path]);
}

/** The test's title, with the reason it is skipped when `needed` is missing. */
export function needing(needed: Tool, title: string): string {
  return needed.path ? title : `${title} (skipped: ${needed.missing})`;
}

/** The tool's path; throws when it is missing (call only inside a test skipped without it). */
export function pathOf(needed: Tool): string {
  if (!needed.path) throw new Error(needed.missing);
  return needed.path;
}
