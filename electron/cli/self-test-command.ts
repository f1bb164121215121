/**
 * `pictor self-test`: runs core/self-test on the host's image engine and encryption check and
 * prints its one JSON line (exit 0 when every step passed, 1 naming the first that failed). The
 * host decides what "the image path" is: the installed app passes Chromium's image renderer and
 * safeStorage (cli-host.ts); Node has no OS keychain of Pictor's, so its encryption is "not
 * applicable".
 */
import { UNKNOWN_VERSION } from '../core/pictor-core';
import { runSelfTest } from '../core/self-test';
import { EXIT } from './cli-report';
import { jsonSafe, terminalSafe } from './terminal-text';
import { argumentsOf } from './cli-args';
import type { SelfTestHost } from './cli-io';
import { commandHelp } from './command-help';
import { declareLibraryCommand } from './library-command';

interface SelfTestIo extends SelfTestHost {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly version?: string;
}

async function selfTestCommand(io: SelfTestIo): Promise<number> {
  const engine = io.imageEngine ? await io.imageEngine() : null;
  try {
    const report = await runSelfTest({
      engine,
      encryption: io.encryption ?? (async () => ({ state: 'not applicable' })),
      version: io.version ?? UNKNOWN_VERSION,
      ...(io.rendererVerifier ? { rendererVerifier: io.rendererVerifier } : {}),
    });
    io.stdout(`${jsonSafe(JSON.stringify(report))}\n`);
    const failed = report.steps.find((step) => !step.ok);
    if (failed && !failed.ok)
      io.stderr(`${terminalSafe(`Self-test failed at ${failed.step}: ${failed.error}`)}\n`);
    return report.ok ? EXIT.ok : EXIT.failed;
  } finally {
    await engine?.dispose();
  }
}

export const selfTest = declareLibraryCommand({
  name: 'self-test',
  help: commandHelp(
    'self-test                       check this installation (history search, image decoding,\n                                  XMP, encryption) in a temporary folder; one JSON line, exit 0 or 1',
    [],
  ),
  parse: ({ positionals }) => {
    argumentsOf('self-test', positionals, 0);
    return { name: 'self-test' as const };
  },
  run: (_line, io) => selfTestCommand(io),
});
