import type { DemoAccount, DemoDialect, DemoInlineResults, DemoServiceOptions } from './types';
import { DEMO_DIALECTS, DEMO_INLINE_RESULTS } from './types';
import { UsageError, parseCommandLine } from '../core/command-line';
import { translatedDialects } from './dialects/dialect-for';

export const USAGE = `Usage: npm run demo-service -- [options]

Runs the demo image task service on loopback and prints "listening on <url>".

Options:
  --port <n>               port to listen on (default 0: a free port)
  --host <host>            interface to listen on (default 127.0.0.1)
  --key <account:key>      accept this key for this account; repeatable (default: key "demo" for account "demo")
  --credits <account:n>    give an account n credits; each accepted submit costs one (default: unlimited)
  --duration <ms|min-max>  how long a task stays processing (default 3000-6000)
  --failure-rate <0..1>    share of tasks that end failed (default 0)
  --images-per-task <n>    images per completed task (default 1)
  --image-ttl <ms>         image URLs expire this long after completion (default: never)
  --redirect-images        image URLs go through a 302 redirect
  --inline-results <form>  completed images in the answer itself: data-url (a data: URL in place
                           of the address) or b64-json (the spec's dialect: an OpenAI-style
                           b64_json field); pictor and fal only
  --image-file <path>      serve this PNG, JPEG or WebP file as it is (a service's signed image)
                           instead of a drawn picture; repeatable: image n of a task is file n
  --max-image-side <px>    largest accepted width or height (default 2048)
  --seed <n>               seed of durations, failures and fault probabilities
  --control                expose the /_demo/* control API to loopback clients
  --dialect <name>         the interface spoken: pictor (the spec's, default) or a service's
                           public API: ${translatedDialects().join(', ')}
  --rate-limit <n>         dialects: the next n submits are answered 429 with Retry-After: 1
  --unknown-status <n>     dialects: the first n status reads of each task carry a status word
                           outside the documented set
  --foreign-origin <url>   dialects: poll, result and cancel URLs handed out point to this origin
  --max-active-tasks <n>   bfl: unfinished tasks per account before a submit is 429 (default 24)
  --cost <where>:<usage>   say each task's cost: where is submit, poll, late or header; usage is
                           the JSON of the usage object ({"cost":0.04}), or the header's text
  --help                   show this help
`;

const OPTIONS = {
  port: { type: 'string' },
  host: { type: 'string' },
  key: { type: 'string', multiple: true },
  credits: { type: 'string', multiple: true },
  duration: { type: 'string' },
  'failure-rate': { type: 'string' },
  'images-per-task': { type: 'string' },
  'image-ttl': { type: 'string' },
  'redirect-images': { type: 'boolean' },
  'inline-results': { type: 'string' },
  'image-file': { type: 'string', multiple: true },
  'max-image-side': { type: 'string' },
  seed: { type: 'string' },
  control: { type: 'boolean' },
  dialect: { type: 'string' },
  'rate-limit': { type: 'string' },
  'unknown-status': { type: 'string' },
  'foreign-origin': { type: 'string' },
  'max-active-tasks': { type: 'string' },
  cost: { type: 'string' },
  help: { type: 'boolean' },
} as const;

/**
 * What the command line asks for. The files of `--image-file` are named, not read: the caller
 * reads them into `options.imageFiles`.
 */
export type CliCommand =
  { kind: 'help' } | { kind: 'run'; options: DemoServiceOptions; imageFiles: string[] };

function wholeNumber(flag: string, text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  if (!/^\d+$/.test(text))
    throw new UsageError(`--${flag} must be a whole number of at least 0, not "${text}".`);
  return Number(text);
}

function parseDuration(text: string | undefined): DemoServiceOptions['durationMs'] {
  if (text === undefined) return undefined;
  const match = /^(\d+)(?:-(\d+))?$/.exec(text);
  if (!match)
    throw new UsageError(
      `--duration must be milliseconds (3000) or a range (3000-8000), not "${text}".`,
    );
  const min = Number(match[1]);
  const max = match[2] === undefined ? min : Number(match[2]);
  if (min > max) throw new UsageError(`--duration range ${text} starts above its end.`);
  return { min, max };
}

function parseFailureRate(text: string | undefined): number | undefined {
  if (text === undefined) return undefined;
  const rate = Number(text);
  if (text.trim() === '' || !Number.isFinite(rate) || rate < 0 || rate > 1) {
    throw new UsageError(`--failure-rate must be a number from 0 to 1, not "${text}".`);
  }
  return rate;
}

function parseKeys(values: string[] | undefined): DemoAccount[] | undefined {
  if (!values) return undefined;
  return values.map((value, index) => {
    const colon = value.indexOf(':');
    const account = value.slice(0, colon);
    const key = value.slice(colon + 1);
    // The value holds a key: the message names the position, never the text.
    if (colon <= 0 || key === '' || /\s/.test(key)) {
      throw new UsageError(
        `--key number ${index + 1} must look like account:key (both non-empty, no spaces in the key).`,
      );
    }
    return { account, key };
  });
}

function applyCredits(accounts: DemoAccount[], values: string[] | undefined): void {
  for (const value of values ?? []) {
    const match = /^([^:]+):(\d+)$/.exec(value);
    if (!match) throw new UsageError(`--credits must look like account:5, not "${value}".`);
    const [, account, credits] = match;
    const entries = accounts.filter((entry) => entry.account === account);
    if (entries.length === 0)
      throw new UsageError(`--credits names account "${account}", which no --key defines.`);
    for (const entry of entries) entry.credits = Number(credits);
  }
}

function parseDialect(text: string | undefined): DemoDialect | undefined {
  if (text === undefined) return undefined;
  const dialect = DEMO_DIALECTS.find((name) => name === text);
  if (!dialect)
    throw new UsageError(`--dialect must be one of ${DEMO_DIALECTS.join(', ')}, not "${text}".`);
  return dialect;
}

function parseInlineResults(text: string | undefined): DemoInlineResults | undefined {
  if (text === undefined) return undefined;
  const form = DEMO_INLINE_RESULTS.find((name) => name === text);
  if (!form) {
    throw new UsageError(
      `--inline-results must be one of ${DEMO_INLINE_RESULTS.join(', ')}, not "${text}".`,
    );
  }
  return form;
}

function parseOrigin(text: string | undefined): string | undefined {
  if (text === undefined) return undefined;
  if (!/^https?:\/\/[^/?#\s]+\/?$/i.test(text))
    throw new UsageError(
      `--foreign-origin must be an origin such as http://127.0.0.1:9, not "${text}".`,
    );
  return text;
}

type DialectFlag =
  'dialect' | 'rate-limit' | 'unknown-status' | 'foreign-origin' | 'max-active-tasks';

/** The dialect switches; each is left out when not given, so the defaults apply. */
function dialectOptions(values: Partial<Record<DialectFlag, string>>): DemoServiceOptions {
  const options: DemoServiceOptions = {};
  const dialect = parseDialect(values.dialect);
  if (dialect !== undefined) options.dialect = dialect;
  const rateLimit = wholeNumber('rate-limit', values['rate-limit']);
  if (rateLimit !== undefined) options.rateLimit = rateLimit;
  const unknown = wholeNumber('unknown-status', values['unknown-status']);
  if (unknown !== undefined) options.unknownStatusPolls = unknown;
  const origin = parseOrigin(values['foreign-origin']);
  if (origin !== undefined) options.foreignOrigin = origin;
  const active = wholeNumber('max-active-tasks', values['max-active-tasks']);
  if (active !== undefined) options.maxActiveTasks = active;
  return options;
}

const COST_FLAG = /^(submit|poll|late|header):(.*)$/s;

/** `--cost where:usage`: the usage object as JSON, or (header) the header's text. */
function parseCost(text: string | undefined): DemoServiceOptions['cost'] {
  if (text === undefined) return undefined;
  const match = COST_FLAG.exec(text);
  if (!match) throw new UsageError('--cost must look like late:{"cost":0.04} or header:0.04 USD.');
  const where = match[1] as 'submit' | 'poll' | 'late' | 'header';
  const said = match[2] ?? '';
  if (where === 'header') return { where, header: said };
  try {
    return { where, usage: JSON.parse(said) as unknown };
  } catch {
    throw new UsageError('--cost must give the usage object as JSON, as in late:{"cost":0.04}.');
  }
}

/** Turns the command line (without node and script) into options; throws {@link UsageError}. */
export function parseCliArgs(argv: string[]): CliCommand {
  const { values } = parseCommandLine(argv, OPTIONS, false);
  if (values.help) return { kind: 'help' };
  const accounts = parseKeys(values.key) ?? [{ account: 'demo', key: 'demo' }];
  applyCredits(accounts, values.credits);
  const ttl = wholeNumber('image-ttl', values['image-ttl']);
  const options: DemoServiceOptions = {
    host: values.host,
    port: wholeNumber('port', values.port),
    accounts,
    durationMs: parseDuration(values.duration),
    failureRate: parseFailureRate(values['failure-rate']),
    imagesPerTask: wholeNumber('images-per-task', values['images-per-task']),
    imageUrlTtlMs: ttl,
    redirectImages: values['redirect-images'],
    inlineResults: parseInlineResults(values['inline-results']),
    maxImageSide: wholeNumber('max-image-side', values['max-image-side']),
    seed: wholeNumber('seed', values.seed),
    control: values.control,
    cost: parseCost(values.cost),
    ...dialectOptions(values),
  };
  return { kind: 'run', options, imageFiles: values['image-file'] ?? [] };
}
