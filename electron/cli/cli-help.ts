/**
 * The CLI's help, drawn from the commands' declarations (command-table.ts). `pictor help` (and
 * `--help` alone): every command's usage, the providers, the shared options and the exit codes.
 * `pictor <command> --help`, `pictor help <command>`: that command's usage and the options it
 * takes (command-help.ts), nothing of the others, and a line pointing to `pictor help`.
 */
import { DEFAULT_PROVIDER, PROVIDERS, PROVIDER_IDS } from '../../shared/domain/providers';
import { DEMO_COMMANDS, DEMO_OPTION } from './demo-choice';
import { MIN_ID_PREFIX } from './task-ids';
import { OPTION_LINES, type CommandHelp, type OptionGroup } from './command-help';

/** The providers as the help lists them: id, name, and the address and model used by default. */
function providerHelp(address = true): string {
  const rows = PROVIDER_IDS.map((id) => {
    const { label, defaultBaseUrl, defaultModel } = PROVIDERS[id];
    const where =
      defaultBaseUrl ?? (address ? 'no default address: give --base-url' : 'no default address');
    return `  ${id.padEnd(10)} ${label}; ${where}${defaultModel ? `; model ${defaultModel}` : ''}`;
  });
  const override = address
    ? ` --base-url overrides the provider's address (a proxy, a gateway): its
documented paths go under it, and it becomes the one address the key goes to.`
    : '';
  return `Providers (--provider ID, default ${DEFAULT_PROVIDER}): the kind of service, which says how the key is
sent and how answers read.${override}
${rows.join('\n')}
  ${DEMO_OPTION.padEnd(10)} Pictor's built-in demo service, started inside the command on 127.0.0.1: no key,
             no address, free (${DEMO_COMMANDS.join(', ')}; its tasks resume with
             --provider ${DEMO_OPTION})
`;
}

type ListedGroup = Exclude<OptionGroup, 'service' | 'providers'>;

/** The shared options, each group once: `pictor help` lists them after every command. */
const SHARED_OPTIONS = `Options several commands take (each command's help lists its own):
${[...OPTION_LINES.library, ...OPTION_LINES.watch, ...OPTION_LINES.json, ...OPTION_LINES.verbose].join('\n')}
`;

const EXIT_CODES = `Exit codes: 0 done and every image saved; 1 task failed (also moderated or canceled on the
service); 2 usage error; 3 stopped watching (timeout, or waiting for another account's key);
4 completed but an image could not be saved; 5 the library cannot be used, or a disk refused a
write (an import into the library, an export's archive, a template export's file); 6 nothing
was sent: the service refused the request or could not be reached (a blocked port, a refused
connection, an unknown name, a failed TLS handshake, an address the URL policy refuses: the
line says which), or a hard spending cap stopped it; 7 the request may have reached the service
(the connection failed after it was written, or no answer in time; not sent again); 70
unexpected problem; 130 interrupted; 141 the output's reader closed early (| head), stopped
silently. With several tasks, the highest code.
`;

/**
 * The help text, naming the CLI as the user runs it (`pictor`, or `npm run -s cli --`): every
 * command of `helps` (in its order), the providers, the shared options and the exit codes; or,
 * with `topic`, that command's usage and its options only.
 */
export function helpText(
  program: string,
  helps: ReadonlyMap<string, CommandHelp>,
  topic?: string,
): string {
  const asked = topic === undefined ? undefined : helps.get(topic);
  if (topic !== undefined && asked !== undefined) return topicHelp(program, topic, asked);
  const commands = [...helps.values()].map((entry) => `  ${entry.usage}`);
  return `Pictor command line: generate images through an image task service and keep them.

Usage: ${program} <command> [options]   (the key is read from SERVICE_API_KEY and is
sent only to the service named with --provider and --base-url)
Try it with no key: ${program} demo "a lighthouse at dusk"   (generate --provider demo)
${program} <command> --help (or ${program} help <command>): one command's usage and options.
${program} --version: the version of Pictor.
Ids: a task or compare id may be given short, as generate and compare print it (its first
${MIN_ID_PREFIX} or more characters), when no other id starts the same.

${commands.join('\n')}

${providerHelp()}
${SHARED_OPTIONS}
${EXIT_CODES}`;
}

/** One command's help: its usage, then the options of each group it takes. */
function topicHelp(program: string, topic: string, help: CommandHelp): string {
  const { usage, options } = help;
  const groups = options.filter(
    (group): group is ListedGroup => group !== 'service' && group !== 'providers',
  );
  const lines = groups.flatMap((group) => OPTION_LINES[group]);
  const shared = lines.length === 0 ? '' : `Options:\n${lines.join('\n')}\n\n`;
  const service = options.includes('service')
    ? `The key is read from SERVICE_API_KEY and is sent only to the service named with --provider
and --base-url.
${providerHelp()}
`
    : options.includes('providers')
      ? `${providerHelp(false)}
`
      : '';
  return `Usage: ${program} ${topic} [options]

  ${usage}

${shared}${service}Exit codes and every command: ${program} help
`;
}
