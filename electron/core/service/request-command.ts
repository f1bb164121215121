/**
 * "Copy as command": a request as the command lines that send it again, the `pictor generate …`
 * line and a cURL line of the body the target's dialect sends (its own submit, so the two never
 * differ), with `$SERVICE_API_KEY` where the key goes, for the user's shell (POSIX shells, or
 * PowerShell on Windows: shared/text/command-words.ts). The key is never read here.
 */
import { PROVIDERS } from '../../../shared/domain/providers';
import {
  DEMO_ENDPOINT,
  demoProviderOf,
  type SubmitTarget,
} from '../../../shared/domain/submit-target';
import type { GenerationRequest } from '../../../shared/service/wire';
import type { CommandShell } from '../../../shared/text/command-words';
import {
  KEY_VARIABLE,
  curlCommand,
  generateCommand,
  type CommandTarget,
} from '../../../shared/text/shell-command';
import { UnwritableCommand } from '../../../shared/text/windows-command';
import { profileOf } from './providers/profiles';

interface RequestCommands {
  /** The `pictor generate …` line. */
  readonly generate: string;
  /**
   * Null where no cURL line can send it: the built-in demo, a request with input images, or a URL
   * or header the shell cannot be given (windows-command.ts).
   */
  readonly curl: string | null;
}

/** The command's target: the demo as `--provider=demo`, an address of the user's own as its URL. */
function commandTarget(target: SubmitTarget): CommandTarget {
  if (demoProviderOf(target.endpoint) !== null) {
    // Today's contract's demo is the CLI's `--provider=demo`; another dialect's, its provider.
    return { provider: target.endpoint === DEMO_ENDPOINT ? 'demo' : target.provider };
  }
  const own = PROVIDERS[target.provider].defaultBaseUrl;
  const baseUrl = target.endpoint.replace(/\/+$/, '');
  return { provider: target.provider, ...(baseUrl === own ? {} : { baseUrl }) };
}

/** The cURL line that sends `request` to `target` in `shell`, or null (see RequestCommands). */
export function requestCurl(
  target: SubmitTarget,
  request: GenerationRequest,
  shell: CommandShell = 'posix',
): string | null {
  if (demoProviderOf(target.endpoint) !== null || request.inputs !== undefined) return null;
  const profile = profileOf(target.provider);
  let sent;
  try {
    sent = profile.submit(request);
  } catch {
    return null; // A request the dialect cannot send (no model where fal needs one).
  }
  const base = target.endpoint.replace(/\/+$/, '');
  const url = sent.target.startsWith('/') ? `${base}${sent.target}` : sent.target;
  const headers = { ...profile.authHeaders(KEY_VARIABLE), ...sent.headers };
  try {
    return curlCommand({ method: sent.method, url, headers, body: sent.body }, shell);
  } catch (error) {
    if (error instanceof UnwritableCommand) return null;
    throw error;
  }
}

/**
 * The lines that send `request` to `target` again in `shell`. Throws UnwritableCommand where the
 * `pictor` line cannot be written for it (a control character on Windows).
 */
export function requestCommands(
  target: SubmitTarget,
  request: GenerationRequest,
  shell: CommandShell = 'posix',
): RequestCommands {
  return {
    generate: generateCommand(commandTarget(target), request, shell),
    curl: requestCurl(target, request, shell),
  };
}

/**
 * "Copy as command": the text that goes to the clipboard, the `pictor generate …` line and, where
 * there is one, the cURL line below it.
 */
export function commandText(
  target: SubmitTarget,
  request: GenerationRequest,
  shell: CommandShell = 'posix',
): string {
  const { generate, curl } = requestCommands(target, request, shell);
  return curl === null ? generate : `${generate}\n${curl}`;
}
