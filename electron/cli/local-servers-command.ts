/**
 * `pictor local-servers [list | allow ADDRESS | remove ADDRESS] [--data-dir DIR] [--json]`: the
 * loopback servers another user of this computer runs that Pictor may send to all the same (a
 * ComfyUI run as a system service), the app's Settings › Local servers list. On Linux every other
 * user's server on this computer is refused unless its address is there
 * (core/service/local-server-gate.ts). The list lives in the app's settings.json, changed through
 * the core's settings of the library (core/settings/edit-settings.ts: the app's checks, its lock,
 * only the field changed), so the app sees it at once. The person at the terminal is the user: no question is asked, as for every
 * setting the CLI writes; the window asks before the page adds one (app/local-server-question.ts).
 */
import { UsageError, parseCommandLine } from '../core/command-line';
import { localServerAddress } from '../core/service';
import { EXIT } from './cli-report';
import type { CliIo } from './cli-io';
import { declareCommand } from './command-declaration';
import { commandHelp } from './command-help';
import { common, type CommonOptions } from './common-args';
import { runOnService } from './commands';
import { terminalSafe } from './terminal-text';

const OPTIONS = {
  'data-dir': { type: 'string' },
  'gallery-dir': { type: 'string' },
  json: { type: 'boolean' },
} as const;

interface LocalServersLine {
  readonly name: 'local-servers';
  readonly verb: 'list' | 'allow' | 'remove';
  readonly address: string | null;
  readonly common: CommonOptions;
}

const USAGE =
  'local-servers takes list, allow ADDRESS or remove ADDRESS (pictor local-servers allow 127.0.0.1:8188).';

function parseLocalServers(argv: readonly string[], env: NodeJS.ProcessEnv): LocalServersLine {
  const { values, positionals } = parseCommandLine(argv, OPTIONS, true);
  const typed = values as Record<string, string | boolean | undefined>;
  const [verb = 'list', written, ...rest] = positionals;
  if (verb !== 'list' && verb !== 'allow' && verb !== 'remove') throw new UsageError(USAGE);
  if ((verb === 'list') !== (written === undefined) || rest.length > 0) throw new UsageError(USAGE);
  const address = written === undefined ? null : localServerAddress(written);
  if (written !== undefined && address === null) {
    throw new UsageError(
      `${terminalSafe(written)} is not a loopback server's address: write it as host:port (127.0.0.1:8188, [::1]:8188, localhost:8188).`,
    );
  }
  const options = common(
    {
      'data-dir': typed['data-dir'] as string | undefined,
      'gallery-dir': typed['gallery-dir'] as string | undefined,
      json: typed['json'] === true,
    },
    env,
  );
  return { name: 'local-servers', verb, address, common: options };
}

/** The list after `line`'s change (as written: a change that changes nothing writes nothing). */
function changed(line: LocalServersLine, now: readonly string[]): readonly string[] {
  const { verb, address } = line;
  if (verb === 'allow' && address !== null && !now.includes(address)) return [...now, address];
  if (verb === 'remove') return now.filter((entry) => entry !== address);
  return now;
}

async function runLocalServers(line: LocalServersLine, io: CliIo): Promise<number> {
  let before: readonly string[] = [];
  let kept: readonly string[] = [];
  // The core's settings of the library's data folder (its settings.json, the app's): a damaged
  // file is the app's to repair and report, refused here and never overwritten.
  await runOnService(
    line,
    io,
    async ({ core }) => {
      kept = core.editSettings.changeLocalServers((now) => {
        before = now;
        return changed(line, now);
      });
      return EXIT.ok;
    },
    { needsKey: false },
  );
  if (line.common.json) {
    io.stdout(`${JSON.stringify({ allowedLocalServers: kept })}\n`);
    return EXIT.ok;
  }
  if (line.verb === 'remove' && !before.includes(line.address ?? '')) {
    io.stderr(`${line.address} was not in the list.\n`);
  }
  io.stdout(
    kept.length === 0
      ? 'No local server of another user is allowed.\n'
      : `Allowed local servers of other users:\n${kept.map((entry) => `  ${entry}\n`).join('')}`,
  );
  return EXIT.ok;
}

export const localServers = declareCommand({
  options: OPTIONS,
  help: commandHelp(
    `local-servers [list | allow ADDRESS | remove ADDRESS]
                                  the loopback servers another user of this computer runs that
                                  Pictor may send to (Settings › Local servers): a server such as
                                  a system-service ComfyUI; ADDRESS is host:port (127.0.0.1:8188)`,
    ['library', 'json'],
  ),
  parse: parseLocalServers,
  run: runLocalServers,
});
