/**
 * A command Pictor prints is never the step that sends the key somewhere the user did not name.
 * An archive whose unfinished tasks name other services (a stranger's origin, another path of
 * the user's own gateway, this computer) is imported with the CLI; then every command that
 * prints a resume line runs. Each printed command, split as the user's shell would split it,
 * names no service but the one given with --base-url in that run. Pasting one, with
 * SERVICE_API_KEY set and every connection to the stranger going through a recording proxy,
 * reaches nobody.
 */
import { execFileSync } from 'node:child_process';
import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { join } from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { HistoryStore } from '../../../electron/core/history/history-store';
import { HISTORY_FILE } from '../../../electron/core/pictor-core';
import { addTask, offlineGallery } from '../../unit/core/library/archive/library-fixture';
import { expectExit, STOP_WATCHING, useCliWorlds, type CliWorld } from './cli-harness';
import { jsonLines, type CliRun } from './run-cli';
import { needing, pathOf, posixShell } from '../../support/tools';

/** The user's shell, to split the printed commands as it would (skipped, saying why, without one). */
const SH = posixShell();

const newWorld = useCliWorlds();
const servers: Server[] = [];
afterEach(async () => {
  for (const server of servers.splice(0)) await new Promise((done) => server.close(done));
});

/** The arguments of a printed command, as the user's POSIX shell would split them. */
function shellWords(command: string): string[] {
  const printed = execFileSync(pathOf(SH), ['-c', `printf '%s\\0' ${command}`], {
    encoding: 'utf8',
  });
  return printed.split('\0').slice(0, -1);
}

/** Every command the run printed for the user to paste (resume lines and the interrupt line). */
function printedCommands(run: CliRun): string[] {
  return run.stderr
    .split('\n')
    .map((line) =>
      /(?:Resume with|continue with|typed by you[^:]*): (npm run -s cli -- .*)$/.exec(line),
    )
    .filter((match): match is RegExpExecArray => match !== null)
    .map((match) => match[1]!);
}

/**
 * Checks that no printed command names a service but `named` (this run's --base-url, if any);
 * returns the commands' words.
 */
function expectOnlyNamed(run: CliRun, named: string | null, strangers: readonly string[]) {
  const commands = printedCommands(run);
  const all = commands.map((command) => {
    const words = shellWords(command.replace(/^npm run -s cli -- /, ''));
    for (const stranger of strangers) {
      expect(words.join(' '), `${command} names ${stranger}`).not.toContain(stranger);
    }
    const at = words.indexOf('--base-url');
    if (at >= 0) expect(words[at + 1], command).toBe(named);
    return words;
  });
  return all;
}

/** A recording forward proxy: every CONNECT is written down and refused. */
async function recordingProxy(seen: string[]): Promise<string> {
  const proxy = createServer((req, res) => {
    seen.push(`${req.method} ${req.url}`);
    res.writeHead(403).end();
  });
  proxy.on('connect', (req: IncomingMessage, client: Socket) => {
    seen.push(`CONNECT ${req.url}`);
    client.end('HTTP/1.1 403 Forbidden\r\n\r\n');
  });
  servers.push(proxy);
  await new Promise<void>((resolve) => proxy.listen(0, '127.0.0.1', resolve));
  return `http://127.0.0.1:${(proxy.address() as AddressInfo).port}`;
}

/** An archive of unfinished tasks naming `endpoints`, imported into `into` with the CLI. */
async function importHostileArchive(
  into: CliWorld,
  endpoints: readonly string[],
  extra: Partial<TaskRecord> = {},
) {
  const from = await newWorld();
  expectExit(await from.run(['list']), 0);
  const history = HistoryStore.open(join(from.dataDir, HISTORY_FILE));
  const made: TaskRecord[] = [];
  try {
    const root = join(from.dataDir, 'gallery');
    const library = { dir: from.dataDir, root, history, ...offlineGallery(root) };
    for (const [index, endpoint] of endpoints.entries()) {
      made.push(
        await addTask(library, ['png'], {
          taskId: `hostile-${extra.provider ?? 'pictor'}-${index}`,
          endpoint,
          status: 'processing',
          finishedAt: null,
          ...extra,
        }),
      );
    }
  } finally {
    history.close();
  }
  const archive = join(from.dataDir, 'hostile.zip');
  expectExit(await from.run(['export', archive]), 0);
  expectExit(await into.run(['import', archive]), 0);
  return made;
}

/**
 * Each test starts about ten CLI processes (TypeScript compiled at each start) one after the
 * other: about 20 s on an idle machine, over 60 s at a load average of 12 on 2 cores, where
 * the project's 60 s default failed it. Nothing here waits on time, so a far limit only ends a
 * hang.
 */
const CLI_RUNS_TIMEOUT_MS = 300_000;

describe.skipIf(!SH.path)(
  needing(SH, 'printed commands after importing a hostile archive'),
  () => {
    it('name no service the user did not give, in every command that prints a resume line', async () => {
      const user = await newWorld({ durationMs: 60_000 });
      const named = user.service.baseUrl;
      const sibling = `${named}/team-b`;
      const strangers = ['attacker.example', 'team-b', '127.0.0.2'];
      const tasks = await importHostileArchive(user, [
        'https://attacker.example/v1',
        'https://attacker.example/tenant',
        sibling,
        'http://127.0.0.2:8080',
      ]);

      const runs: [CliRun, string | null][] = [];
      const all = await user.run(['resume', '--all', '--timeout', '2']);
      runs.push([all, named]);
      runs.push([await user.run(['resume', '--all', '--timeout', '2'], { named: false }), null]);
      // The two on this computer print no command at all (see below).
      for (const task of tasks.slice(0, 2)) {
        runs.push([await user.run(['resume', task.taskId!, '--timeout', '2']), named]);
      }
      const unnamed = ['resume', tasks[0]!.taskId!, '--timeout', '2'];
      runs.push([await user.run(unnamed, { named: false }), null]);
      const generated = await user.run([
        'generate',
        '--prompt',
        'mine',
        '--timeout',
        STOP_WATCHING,
        '--json',
      ]);
      runs.push([generated, named]);
      const [mine] = jsonLines(generated);
      runs.push([await user.run(['track', mine!.taskId!, '--timeout', STOP_WATCHING]), named]);

      for (const [run, runNamed] of runs) {
        expect(printedCommands(run).length, run.stderr).toBeGreaterThan(0);
        expectOnlyNamed(run, runNamed, strangers);
      }
      // The hostile tasks' lines say where the address came from, as data, not as a command.
      const lineOf = (task: TaskRecord) =>
        all.stderr.split('\n').find((text) => text.startsWith(`Task ${task.taskId!} `));
      for (const task of tasks.slice(0, 2)) {
        expect(lineOf(task), all.stderr).toMatch(
          /add --base-url and its service's address, typed by you/,
        );
      }
      // Tasks from a file that name this computer are never contacted: no command at all.
      for (const task of tasks.slice(2)) expect(lineOf(task), all.stderr).toMatch(/id is kept\.$/);
      expect(all.stderr).toMatch(/comes from the imported file, not from you/);
      // The user's own tasks keep their paste-ready command, with the service they named.
      const own = runs.at(-2)![0];
      expect(own.stderr).toMatch(/Resume with: /);
      expect(expectOnlyNamed(own, named, strangers)[0]).toContain('--base-url');
    });

    it('when pasted with SERVICE_API_KEY set, reaches neither the stranger nor anyone else', async () => {
      const user = await newWorld();
      const [task] = await importHostileArchive(user, ['https://attacker.example/v1']);
      const seen: string[] = [];
      const proxy = await recordingProxy(seen);
      const env = { HTTPS_PROXY: proxy, HTTP_PROXY: proxy };
      const shown = await user.run(['resume', '--all', '--timeout', '2'], { env });
      const [command] = printedCommands(shown).filter((text) => text.includes(task!.taskId!));
      expect(command, shown.stderr).toBeDefined();
      const pasted = await user.run(shellWords(command!.replace(/^npm run -s cli -- /, '')), {
        env,
        fast: true,
      });
      expect(pasted.code, pasted.stderr).toBe(3);
      expect(seen, 'connections to anyone but the user’s own service').toEqual([]);
      expect(user.service.log.length, 'the user’s service was asked nothing about it').toBe(0);
    });

    it('name neither a stranger nor its provider for another provider’s task, and no --provider unasked', async () => {
      const user = await newWorld({ durationMs: 60_000 });
      const named = user.service.baseUrl;
      const strangers = ['attacker.example', 'gateway.example'];
      const tasks = await importHostileArchive(
        user,
        ['https://attacker.example', 'https://gateway.example/team-b'],
        { provider: 'fal' },
      );
      const seen: string[] = [];
      const proxy = await recordingProxy(seen);
      const env = { HTTPS_PROXY: proxy, HTTP_PROXY: proxy };
      const runs: [CliRun, string | null][] = [
        [await user.run(['resume', '--all', '--timeout', '2'], { env }), named],
        [
          await user.run(['resume', '--all', '--provider', 'fal', '--timeout', '2'], { env }),
          named,
        ],
      ];
      for (const [run, runNamed] of runs) {
        expect(printedCommands(run).length, run.stderr).toBeGreaterThan(0);
        for (const words of expectOnlyNamed(run, runNamed, strangers)) {
          // Not on the named service: the provider is the record's word, said, not printed.
          expect(words, run.stderr).not.toContain('--provider');
        }
        for (const task of tasks) {
          const line = run.stderr
            .split('\n')
            .find((text) => text.startsWith(`Task ${task.taskId!} `));
          expect(line, run.stderr).toMatch(
            /typed by you \(Pictor never prints one a task record gave; add --provider fal too\)/,
          );
        }
      }
      // No connection left this computer: not to the strangers, not to fal's own address.
      expect(seen).toEqual([]);
      // The user's own task's line carries --provider: providers-resume.test.ts.
    });
  },
  CLI_RUNS_TIMEOUT_MS,
);
