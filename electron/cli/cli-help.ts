/**
 * The CLI's help. `pictor help` (and `--help` alone): every command's usage, the providers, the
 * shared options and the exit codes. `pictor <command> --help`, `pictor help <command>`: that
 * command's usage and the options it takes (command-help.ts), nothing of the others.
 */
import { TASKS_PER_ENGINE_SUBMIT } from '../../shared/domain/limits';
import { DEFAULT_PROVIDER, PROVIDERS, PROVIDER_IDS } from '../../shared/domain/providers';
import { COST_HELP } from './cost-args';
import { TRIAGE_HELP } from './triage-args';
import { TEMPLATE_HELP } from './template-args';
import { DEMO_COMMANDS, DEMO_OPTION } from './demo-choice';
import { MIN_ID_PREFIX } from './task-ids';
import { OPTION_LINES, commandHelp, type CommandHelp, type OptionGroup } from './command-help';

export { DEFAULT_TIMEOUT_SECONDS } from './command-help';
/** `--count`'s range as the help and the usage error say it: "1 to 100". */
export const COUNT_RANGE = `${TASKS_PER_ENGINE_SUBMIT.min} to ${TASKS_PER_ENGINE_SUBMIT.max}`;

/** The providers that can cancel a task and those that cannot, as `cancel`'s help names them. */
const CANCEL_PROVIDERS = PROVIDER_IDS.filter((id) => PROVIDERS[id].canCancel).join(', ');
const NO_CANCEL_PROVIDERS = PROVIDER_IDS.filter((id) => !PROVIDERS[id].canCancel).join(' and ');

/** The options of the commands that run tasks on a service. */
const RUN: readonly OptionGroup[] = ['service', 'library', 'watch', 'json', 'verbose'];

/** Each command's help (its usage, what it does, the option groups it takes), in the help's order. */
const COMMAND_HELP = {
  generate: commandHelp(
    `generate "PROMPT" [--provider ID] [--base-url URL] [--model M] [--size WxH]
                                  [--quality Q] [--count N] [--board PATH]
                                  submit the prompt (--count tasks, ${COUNT_RANGE}) and save the images.
                                  PROMPT is the words after generate (quote them for the shell;
                                  several words are joined by spaces; after -- when it starts
                                  with -), or --prompt TEXT. --board puts the images into that
                                  board as they arrive (made when the library has none).
                                  --provider demo runs Pictor's built-in demo service: no key,
                                  no address. --template NAME [--var NAME=VALUE]...
                                  [--expand combinatorial|random:N [--seed S]] [--dry-run]: the
                                  template's prompts (PROMPT fills its {{prompt}}), every
                                  combination or N drawn at random (at most 100 tasks), priced
                                  first; --dry-run prints them and the estimate and sends nothing;
                                  over a hard cap nothing is sent (exit 6)`,
    RUN,
  ),
  demo: commandHelp(
    `demo ["PROMPT"] [--size WxH] [--count N] [--board PATH]
                                  try Pictor with no key and no service: generate --provider demo,
                                  which runs the built-in demo service inside the command (its
                                  pictures are drawn on this computer; a sample prompt when none)`,
    ['library', 'watch', 'json', 'verbose'],
  ),
  resume: commandHelp(
    `resume <task-id> | --all [--provider ID] [--base-url URL]   continue polling tasks in the
                                  history (never resubmits); --all with --provider: only that
                                  provider's tasks (demo: the built-in demo's), the others left
                                  as they are; only tasks of that provider on that service get
                                  the key`,
    RUN,
  ),
  track: commandHelp(
    `track <task-id> [--provider ID] [--base-url URL] [--model M] [--prompt TEXT]
                                  follow a task created elsewhere; --model is the model it was
                                  made with (fal needs it: its requests live under their model)`,
    RUN,
  ),
  cancel: commandHelp(
    `cancel <task-id>... [--provider ID] [--base-url URL]
                                  ask each task's service to cancel it (${CANCEL_PROVIDERS};
                                  ${NO_CANCEL_PROVIDERS} cannot): exit 0 when every one ended
                                  canceled, 1 when a service refused or finished it first (its
                                  images are saved), 2 when it could not be asked`,
    ['service', 'library', 'json', 'verbose'],
  ),
  list: commandHelp(
    "list [--provider ID]            print the history (each task with its provider), or only\n                                  the tasks of one provider (--template ID: of one template); with --rating '>=4', --flag F,\n                                  --board PATH, --tag T (repeatable), --unfiled or --smart NAME\n                                  (a smart board), the images that match, one per line (or JSON\n                                  with --json)",
    ['service', 'library', 'json'],
  ),
  compare: commandHelp(
    `compare --prompt "PROMPT" --target PROVIDER[:MODEL] --target … [--size WxH]
                                  [--quality Q] [--count N] [--base-url PROVIDER=ORIGIN]...
                                  send one prompt (--prompt up to 10 times) to 2 to 6 targets at
                                  once (the same target twice is labelled #1, #2); each
                                  provider's key is read from PICTOR_KEY_<PROVIDER> (as
                                  PICTOR_KEY_FAL, PICTOR_KEY_BFL) and sent only to its address.
                                  --target demo: Pictor's built-in demo service, run inside the
                                  command (no key, free); demo:PROVIDER (as demo:fal,
                                  demo:bfl): the demo speaking that provider's
                                  dialect (each started once, on 127.0.0.1; no real key is read
                                  or sent; resume --provider demo continues their tasks). A
                                  target without a key is left out
                                  and said so; a size its service takes otherwise is adapted
                                  (1024x1024 → 1:1). Prints the group id, then a row per task:
                                  its target, id (Pictor's, short), task (the service's id),
                                  status, time, cost and seed (when its service said one), and
                                  under it each saved image's path; exit code the highest of
                                  its tasks'; 6 over a hard cap (nothing sent).
                                  compare show GROUP: the group's tasks again (GROUP: its id or
                                  its first characters);
                                  compare cancel GROUP [--base-url PROVIDER=ORIGIN]...: ask
                                  every running task of it to stop where its service can, with
                                  the same PICTOR_KEY_<PROVIDER> keys; list --compare GROUP: the
                                  group`,
    ['library', 'watch', 'json', 'verbose'],
  ),
  edit: commandHelp(
    `edit <image-ref|file> --prompt "PROMPT" [--provider ID] [--base-url URL] [--model M]
                                  [--mask MASK.png] [--ref IMAGE]... [--inputs inline|upload|never]
                                  [--allow-public-upload]
                                  edit an image with an instruction: a library image (an
                                  image-ref: ID or ID#N, kept as the result's parent) or a PNG,
                                  JPEG or WebP file (kept in the library's input store). --mask:
                                  a PNG at the image's exact size (an alpha channel: alpha 0 =
                                  edit; none: white = edit), which makes it a fill; --ref: a
                                  reference image, up to the model's limit. The model is the
                                  first of the provider's that can do it unless --model says.
                                  --inputs: inline in the request only, upload, or never upload
                                  (default: inline when it fits, else the service's upload). A
                                  service whose uploads are public links is used only after
                                  --allow-public-upload (remembered for that service). Prints
                                  the saved images; --json adds each task's id, parent,
                                  operation and the way its inputs went. Nothing is sent when
                                  an input is refused (exit 2)`,
    RUN,
  ),
  upscale: commandHelp(
    `upscale <image-ref|file> --factor 2|4 [--provider ID] [--base-url URL] [--model M]
                                  [--prompt TEXT] [--inputs inline|upload|never]
                                  [--allow-public-upload]
                                  a larger copy of an image; the model is the provider's first
                                  that upscales by that factor unless --model says`,
    RUN,
  ),
  models: commandHelp(
    `models [--capabilities] [--provider ID] [--json]
                                  the models Pictor knows, by provider; --capabilities: only
                                  those that take images, with their operations, image and
                                  reference counts, mask convention, upscale factors, limits,
                                  and how inputs travel (inline up to a size, or an upload:
                                  public links or not, how long they last)`,
    ['service'],
  ),
  rebuild: commandHelp(
    "rebuild                         re-import the gallery folder's sidecars into the history",
    ['library', 'verbose'],
  ),
  export: commandHelp(
    'export <file.zip> [--task ID]...  write the library (or the tasks named) to one archive',
    ['library', 'verbose'],
  ),
  import: commandHelp(
    'import <file.zip | folder>      merge an export or a gallery folder into the library (never\n                                  overwrites; same task and same image bytes are one)',
    ['library', 'verbose'],
  ),
  'self-test': commandHelp(
    'self-test                       check this installation (history search, image decoding,\n                                  XMP, encryption) in a temporary folder; one JSON line, exit 0 or 1',
    [],
  ),
  info: commandHelp(
    'info <image> [--json]           what an image says about itself: its prompt (from the image\n                                  or the .xmp beside it) and its Content Credentials, verified',
    [],
  ),

  ...COST_HELP,
  ...TRIAGE_HELP,
  ...TEMPLATE_HELP,
} as const satisfies Record<string, CommandHelp>;
export type CommandName = keyof typeof COMMAND_HELP;

/** The commands, in the help's order. */
export const COMMAND_NAMES = Object.keys(COMMAND_HELP) as CommandName[];

export function isCommandName(name: string | undefined): name is CommandName {
  return name !== undefined && Object.hasOwn(COMMAND_HELP, name);
}

/** The providers as the help lists them: id, name, and the address and model used by default. */
function providerHelp(): string {
  const rows = PROVIDER_IDS.map((id) => {
    const { label, defaultBaseUrl, defaultModel } = PROVIDERS[id];
    const where = defaultBaseUrl ?? 'no default address: give --base-url';
    return `  ${id.padEnd(10)} ${label}; ${where}${defaultModel ? `; model ${defaultModel}` : ''}`;
  });
  return `Providers (--provider ID, default ${DEFAULT_PROVIDER}): the kind of service, which says how the key is
sent and how answers read. --base-url overrides the provider's address (a proxy, a gateway): its
documented paths go under it, and it becomes the one address the key goes to.
${rows.join('\n')}
  ${DEMO_OPTION.padEnd(10)} Pictor's built-in demo service, started inside the command on 127.0.0.1: no key,
             no address, free (${DEMO_COMMANDS.join(', ')}; its tasks resume with
             --provider ${DEMO_OPTION})
`;
}

type ListedGroup = Exclude<OptionGroup, 'service'>;

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
unexpected problem; 130 interrupted. With several tasks, the highest code.
`;

/**
 * The help text, naming the CLI as the user runs it (`pictor`, or `npm run -s cli --`): every
 * command, the providers, the shared options and the exit codes; or, with `topic`, that command's
 * usage and its options only.
 */
export function helpText(program: string, topic?: CommandName): string {
  if (topic !== undefined) return topicHelp(program, topic);
  const commands = Object.values(COMMAND_HELP).map((entry: CommandHelp) => `  ${entry.usage}`);
  return `Pictor command line: generate images through an image task service and keep them.

Usage: ${program} <command> [options]   (the key is read from SERVICE_API_KEY and is
sent only to the service named with --provider and --base-url)
Try it with no key: ${program} demo "a lighthouse at dusk"   (generate --provider demo)
${program} <command> --help (or ${program} help <command>): one command's usage and options.
Ids: a task or compare id may be given short, as generate and compare print it (its first
${MIN_ID_PREFIX} or more characters), when no other id starts the same.

${commands.join('\n')}

${providerHelp()}
${SHARED_OPTIONS}
${EXIT_CODES}`;
}

/** One command's help: its usage, then the options of each group it takes. */
function topicHelp(program: string, topic: CommandName): string {
  const { usage, options } = COMMAND_HELP[topic];
  const groups = options.filter((group): group is ListedGroup => group !== 'service');
  const lines = groups.flatMap((group) => OPTION_LINES[group]);
  const shared = lines.length === 0 ? '' : `Options:\n${lines.join('\n')}\n\n`;
  const service = options.includes('service')
    ? `The key is read from SERVICE_API_KEY and is sent only to the service named with --provider
and --base-url.
${providerHelp()}
`
    : '';
  return `Usage: ${program} ${topic} [options]

  ${usage}

${shared}${service}Exit codes and every command: ${program} help
`;
}
