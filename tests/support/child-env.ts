/**
 * The one home of the environment a test gives a child process it starts without its own (no
 * inherited keys, proxies or settings): the PATH to find programs on, and TMPDIR, which Node's
 * `os.tmpdir()` and every tool read. An environment built from PATH alone sent the child's
 * temporary files to /tmp, out of the run's own temporary folder (tests/support/run-temp.ts) and
 * its check of what a run leaves: the CLI linked or self-tested, the launcher script, the
 * capability probe, the crash tests' CLI. A test adds what its child needs (`more`), a TMPDIR of
 * its own too.
 */
import { tmpdir } from 'node:os';

/** PATH and TMPDIR as this process has them, with `more` over them. */
export function bareEnv(more: NodeJS.ProcessEnv = {}): NodeJS.ProcessEnv {
  return { PATH: process.env['PATH'] ?? '/usr/bin:/bin', TMPDIR: tmpdir(), ...more };
}
