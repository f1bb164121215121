/** What a CLI command is given to work with: its environment, its output, its host's engines. */
import type { ImageEngine } from '../ports/image-engine';
import type { EncryptionReport, VerifierFactory } from '../core/self-test';

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

export interface CliIo extends SelfTestHost {
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /**
   * Aborted on Ctrl+C (stop watching, keep every id, exit 130), and when the reader of the output
   * closed it early (`| head`: the same stop, silent, exit 141: main.ts processOutput).
   */
  readonly interrupt: AbortSignal;
  /** How the user runs the CLI, for the commands it prints; default `npm run -s cli --`. */
  readonly program?: string;
  /** Pictor's version, written into exported archives; default npm's, else `unknown`. */
  readonly version?: string;
}
