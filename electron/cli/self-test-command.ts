/**
 * `pictor self-test`: runs core/self-test on the host's image engine and encryption check and
 * prints its one JSON line (exit 0 when every step passed, 1 naming the first that failed). The
 * host decides what "the image path" is: the installed app passes Chromium's image renderer and
 * safeStorage (cli-host.ts); Node has no OS keychain of Pictor's, so its encryption is "not
 * applicable".
 */
import type { ImageEngine } from '../ports/image-engine';
import { UNKNOWN_VERSION } from '../core/pictor-core';
import { runSelfTest, type EncryptionReport, type VerifierFactory } from '../core/self-test';
import { EXIT } from './cli-report';
import { jsonSafe, terminalSafe } from './terminal-text';

/** What the host brings to `self-test`. */
export interface SelfTestHost {
  /**
   * The image engine the host's gallery uses. Absent: `self-test` reports that the host has
   * none; the other commands use the plain-Node engine (native sharp when it loads, else
   * header-only: cli/commands.ts).
   */
  readonly imageEngine?: () => Promise<ImageEngine>;
  /** Whether the OS can encrypt the key; absent: not applicable (plain Node). */
  readonly encryption?: () => Promise<EncryptionReport>;
  /**
   * A Content Credentials verifier on the image renderer of {@link imageEngine} (the installed
   * app's); absent: self-test has no `c2pa-renderer` step.
   */
  readonly rendererVerifier?: VerifierFactory;
}

export interface SelfTestIo extends SelfTestHost {
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  readonly version?: string;
}

export async function selfTestCommand(io: SelfTestIo): Promise<number> {
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
