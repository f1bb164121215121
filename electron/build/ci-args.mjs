/**
 * The one argument parser of every script CI calls (`npm run ci:*`, `npm run dist`, the
 * capability probe): node's `util.parseArgs`, strict, over a declared set of options and command
 * words. An unknown option, a value missing, an option given twice, a word the script does not
 * take: each is refused with a sentence and the script's usage, never read as something else
 * (`process.argv[indexOf(flag) + 1]` read the node binary's path when the flag was absent). Plain
 * JavaScript (types in ci-args.d.mts) so the capability probe, which runs in Electron's Node
 * without tsx, uses it too. Unit-tested (tests/unit/build/ci-args.test.ts).
 */
import { parseArgs } from 'node:util';

/** @typedef {Record<string, { type: 'boolean' | 'string' }>} Options */

/**
 * @param {readonly string[]} argv
 * @param {Options} options
 */
function tokensOf(argv, options) {
  return parseArgs({ args: [...argv], options, strict: false, tokens: true }).tokens;
}

/**
 * Where `argv` stops being the script's own: after the first command word that passes the rest
 * of the line on (`previous --x64 --arm64`: electron-builder's arguments), else its end.
 * @param {readonly string[]} argv
 * @param {Options} options
 * @param {readonly string[]} passOn
 */
function ownEnd(argv, options, passOn) {
  if (passOn.length === 0) return argv.length;
  const first = tokensOf(argv, options).find((token) => token.kind === 'positional');
  return first && passOn.includes(first.value) ? first.index + 1 : argv.length;
}

/**
 * Why the options of `argv` are refused, or null.
 * @param {string} name
 * @param {readonly string[]} argv
 * @param {Options} options
 * @returns {string | null}
 */
function optionProblem(name, argv, options) {
  const seen = new Set();
  for (const token of tokensOf(argv, options)) {
    if (token.kind !== 'option') continue;
    const known = Object.hasOwn(options, token.name) ? options[token.name] : undefined;
    if (!known) return `${name} does not know the option ${token.rawName}.`;
    if (known.type === 'string' && (token.value === undefined || token.value.startsWith('-')))
      return `${name}: ${token.rawName} needs a value (${token.rawName} VALUE).`;
    if (known.type === 'boolean' && token.value !== undefined)
      return `${name}: ${token.rawName} takes no value (it was given "${token.value}").`;
    if (seen.has(token.name)) return `${name} was given ${token.rawName} twice: give it once.`;
    seen.add(token.name);
  }
  return null;
}

/**
 * Why the words (positionals) are refused, or null.
 * @param {import('./ci-args.d.mts').CiScript<Options>} script
 * @param {readonly string[]} positionals
 * @returns {string | null}
 */
function wordProblem(script, positionals) {
  const commands = script.commands ?? [];
  if (script.anyWords === true) return null;
  if (commands.length === 0)
    return positionals.length === 0
      ? null
      : `${script.name} takes no word like "${positionals[0]}".`;
  const [command, ...others] = positionals;
  if (command === undefined) return `${script.name} needs one of: ${commands.join(', ')}.`;
  if (!commands.includes(command))
    return `${script.name} does not know "${command}": it takes one of ${commands.join(', ')}.`;
  if (others.length > 0) return `${script.name} takes one word, not also "${others[0]}".`;
  return null;
}

/** @type {import('./ci-args.d.mts').parseCiArgs} */
export function parseCiArgs(script, argv) {
  const options = /** @type {Options} */ (script.options);
  const end = ownEnd(argv, options, script.passOn ?? []);
  const own = argv.slice(0, end);
  const refused = optionProblem(script.name, own, options);
  if (refused) return { ok: false, problem: refused };
  let parsed;
  try {
    parsed = parseArgs({ args: [...own], options, strict: true, allowPositionals: true });
  } catch (error) {
    // What the checks above do not foresee, in node's words.
    const reason = error instanceof Error ? (error.message.split('\n')[0] ?? '') : String(error);
    return { ok: false, problem: `${script.name}: ${reason}` };
  }
  const problem = wordProblem(script, parsed.positionals);
  if (problem) return { ok: false, problem };
  return {
    ok: true,
    values: /** @type {never} */ (parsed.values),
    command: (script.commands ?? []).length > 0 ? (parsed.positionals[0] ?? null) : null,
    positionals: parsed.positionals,
    rest: argv.slice(end),
  };
}

/**
 * `argv` parsed for `script`, or exits 2 saying why and how the script is used.
 * @type {import('./ci-args.d.mts').ciArgsOrExit}
 */
export function ciArgsOrExit(script, argv) {
  const result = parseCiArgs(script, argv);
  if (result.ok) return result;
  console.error(`${result.problem}\nusage: ${script.usage}`);
  return process.exit(2);
}
