/** What a CLI command is given to work with: its environment, its output, its host's engines. */
import type { SelfTestHost } from './self-test-command';

export interface CliIo extends SelfTestHost {
  readonly env: NodeJS.ProcessEnv;
  readonly stdout: (text: string) => void;
  readonly stderr: (text: string) => void;
  /** Aborted on Ctrl+C: stop watching, keep every id, exit 130. */
  readonly interrupt: AbortSignal;
  /** How the user runs the CLI, for the commands it prints; default `npm run -s cli --`. */
  readonly program?: string;
  /** Pictor's version, written into exported archives; default npm's, else `unknown`. */
  readonly version?: string;
}
