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
  /**
   * Resolves once the readers of stdout and stderr have taken all but `leftAtMost` bytes of what
   * was written (a pipe's reader is as slow as it likes: `| less`), or closed their end. A long
   * listing waits on it between pages, so what waits in memory stays bounded and a reader that
   * closed is heard (`| head`: the write's EPIPE comes in a later turn). Absent: the output takes
   * each line as it is written (a test's strings).
   */
  readonly caughtUp?: (leftAtMost: number) => Promise<void>;
  /** How the user runs the CLI, for the commands it prints; default `npm run -s cli --`. */
  readonly program?: string;
  /** Pictor's version, written into exported archives; default npm's, else `unknown`. */
  readonly version?: string;
}
