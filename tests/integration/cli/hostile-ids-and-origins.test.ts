/**
 * The CLI as a hostile service or a second provider would meet it: a task id built to run a
 * command when the user pastes the "Resume with:" line, and a history shared by two providers,
 * where SERVICE_API_KEY must reach only the service named with --base-url.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { QUIRKY_KEYS } from '../../fakes/quirky-service';
import { expectExit, STOP_WATCHING, useCliWorlds } from './cli-harness';
import { needing, pathOf, posixShell } from '../../support/tools';
import { removeFolder, tempFolder } from '../../support/temp-folders';

/** The user's shell, to read the printed command back (skipped, saying why, without one). */
const SH = posixShell();

const newWorld = useCliWorlds();
const dirs: string[] = [];
afterEach(async () => {
  for (const dir of dirs.splice(0)) await removeFolder(dir);
});

/** The arguments of a printed resume command, as the user's POSIX shell would split them. */
function shellWords(command: string): string[] {
  const printed = execFileSync(pathOf(SH), ['-c', `printf '%s\\0' ${command}`], {
    encoding: 'utf8',
  });
  return printed.split('\0').slice(0, -1);
}

describe('the CLI against a hostile id', () => {
  it.skipIf(!SH.path)(
    needing(SH, 'quotes the id in the "Resume with:" line so pasting it runs nothing'),
    async () => {
      const marker = join(await tempFolder('marker'), 'pwned');
      dirs.push(join(marker, '..'));
      const hostile = `x\`touch\${IFS}${marker}\`$(touch\${IFS}${marker});'"`;
      const world = await newWorld({ durationMs: 10_000, taskId: () => hostile });
      const run = await world.run(['generate', '--prompt', 'quoted', '--timeout', STOP_WATCHING]);
      expectExit(run, 3);
      const line = run.stderr.split('\n').find((text) => text.includes('Resume with: '));
      expect(line, run.stderr).toBeDefined();
      const command = line!.slice(line!.indexOf('Resume with: ') + 'Resume with: '.length);
      const words = shellWords(command.replace(/^npm run -s cli -- /, ''));
      expect(words.slice(0, 2)).toEqual(['resume', hostile]);
      expect(words).toContain('--base-url');
      expect(existsSync(marker)).toBe(false);
    },
  );
});

describe('SERVICE_API_KEY and the services in one history', () => {
  it('never sends one provider’s key to another provider’s task: it waits and says why', async () => {
    const first = await newWorld({ durationMs: 10_000 });
    const second = await newWorld();
    const made = await first.run([
      'generate',
      '--prompt',
      'on the first',
      '--timeout',
      STOP_WATCHING,
    ]);
    expectExit(made, 3);
    const pollsBefore = first.service.log.length;
    // The second provider's key and address, resuming everything in the shared history.
    const resumed = await second.run(
      ['resume', '--all', '--data-dir', first.dataDir, '--timeout', '2'],
      { key: QUIRKY_KEYS.bob },
    );
    expectExit(resumed, 3);
    expect(resumed.stderr).toMatch(/never sent to another service/);
    expect(first.service.log.length, 'the first provider heard nothing more').toBe(pollsBefore);
    expect(second.service.log.length, 'the second provider was not asked either').toBe(0);
  });
});
