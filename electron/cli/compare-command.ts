/**
 * `pictor compare`: the plan's notes on stderr (targets left out, parameters adapted, soft caps),
 * the group id, then each target's task as it ends (compare-report.ts). Exit code: the highest of
 * its tasks'; a hard cap refuses it with exit 6 before anything is stored or sent. A `demo`
 * target runs on Pictor's built-in demo service, started inside the command as `generate
 * --provider demo` starts it; a `demo:fal` (`demo:bfl`, …) target on the demo speaking that
 * provider's dialect, each dialect started once. `pictor compare show GROUP` and `compare cancel GROUP` take the
 * group's id or its start (task-ids.ts).
 */
import { PROVIDERS, PROVIDER_IDS, type ProviderId } from '../../shared/domain/providers';
import type { TaskRecord } from '../../shared/domain/task-record';
import { isDemoEndpoint } from '../../shared/domain/submit-target';
import {
  cancelCompare,
  CompareInputError,
  compareTasks,
  planCompare,
  runCompare,
} from '../core/compare';
import type { PictorCore } from '../core/pictor-core';
import { BuiltInDemo } from './built-in-demo';
import { EXIT, worstExitCode } from './cli-report';
import { openCliCore } from './commands';
import type { CliIo } from './cli-io';
import { declareCommand } from './command-declaration';
import { commandHelp } from './command-help';
import { COMPARE_OPTIONS, compareTargetsToPrepare, parseCompare } from './compare-args';
import type { CompareCommand } from './compare-args';
import { CompareCredentials } from './compare-credentials';
import { leftOutReason, reportCompare } from './compare-report';
import { demoStartedLine } from './demo-choice';
import { say, sayPlan, sendOrRefuse } from './fan-out-command';
import { findCompareGroup } from './task-ids';
import { fetchOnFirstUse, openNamedBook } from './models-schemas';
import { terminalSafe } from './terminal-text';

/**
 * The providers whose keys a command may use: a compare's targets'; for `compare cancel`, every
 * provider whose PICTOR_KEY_<PROVIDER> is set (the group's tasks may be on any of them), each key
 * bound to its --base-url or the provider's own address, so a task recorded elsewhere is not
 * stopped with it; `compare show` sends nothing. A `demo` target needs no key.
 */
function keyedProviders(command: CompareCommand): readonly ProviderId[] {
  if (command.name === 'compare')
    return command.targets.flatMap((target) =>
      isDemoEndpoint(target.baseUrl ?? '') ? [] : [target.provider],
    );
  return command.name === 'compare-cancel' ? PROVIDER_IDS : [];
}

async function runCompareCommand(command: CompareCommand, io: CliIo): Promise<number> {
  const urls = command.name === 'compare-show' ? new Map() : command.baseUrls;
  const dialects = command.name === 'compare' ? command.demoDialects : [];
  const demo = dialects.length > 0 ? new BuiltInDemo(dialects) : null;
  const providers = keyedProviders(command);
  const credentials = await CompareCredentials.create(io.env, providers, urls, demo ?? undefined);
  const { core, imageEngine } = await openCliCore(command.common, credentials, io);
  try {
    if (command.name === 'compare-show') return show(core, command, io);
    if (command.name === 'compare-cancel') return await cancelAll(core, command, io);
    if (demo !== null) {
      await demo.start({ images: imageEngine, history: core.history, env: io.env });
      io.stderr(demoStartedLine(false));
    }
    return await compareRun(core, command, credentials, io);
  } finally {
    // The engine first (it polls the demo), then the demo (it draws with the image engine).
    await core.close();
    await demo?.close();
    await imageEngine.dispose();
  }
}

async function compareRun(
  core: PictorCore,
  command: CompareCommand & { name: 'compare' },
  credentials: CompareCredentials,
  io: CliIo,
): Promise<number> {
  const plan = await planCompare(
    { credentials, costs: core.costs },
    {
      prompts: [...command.prompts],
      targets: [...command.targets],
      ...(command.options ? { options: command.options } : {}),
    },
  );
  const providers = command.targets.map((target) => target.provider);
  const refused = sayPlan(
    io,
    plan,
    (left) => `Left out ${left.label} (target ${left.slot}): ${leftOutReason(left, providers)}`,
  );
  if (refused !== null) return refused;
  core.engine.start({ resume: false });
  const started = await sendOrRefuse(io, () => runCompare(core.engine, plan), CompareInputError);
  if (typeof started === 'number') return started;
  if (!command.common.json) io.stdout(`Compare group ${plan.group}\n`);
  const ids = started.map((record) => record.localId);
  const interrupted = new Promise<'interrupted'>((resolve) => {
    if (io.interrupt.aborted) resolve('interrupted');
    io.interrupt.addEventListener('abort', () => resolve('interrupted'), { once: true });
  });
  const outcome = await Promise.race([core.engine.whenSettled(ids), interrupted]);
  const records = ids.map((id) => core.engine.get(id) ?? core.history.get(id));
  const done = records.filter((record): record is TaskRecord => record !== undefined);
  const json = command.common.json;
  reportCompare({ core, io, json }, plan.group, done, { plan, providers });
  if (outcome === 'interrupted') {
    say(io, 'Interrupted. Every task id is kept; the tasks go on with pictor resume.');
    return EXIT.interrupted;
  }
  return worstExitCode(done);
}

/** The group the command names (its id or the start of it); said and null when there is none. */
function groupOf(
  core: PictorCore,
  command: { group: string; common: { dataDir: string } },
  io: CliIo,
) {
  const group = findCompareGroup(core.history, command.group) ?? null;
  if (group === null) say(io, `No such compare in the history at ${command.common.dataDir}.`);
  return group;
}

/**
 * "Cancel all": every unfinished task of the group is asked to stop where its service can
 * (cancel-tasks.ts); each line says what came of it. Exit 0 when every one ended canceled.
 */
async function cancelAll(
  core: PictorCore,
  command: CompareCommand & { name: 'compare-cancel' },
  io: CliIo,
): Promise<number> {
  const group = groupOf(core, command, io);
  if (group === null) return EXIT.usage;
  core.engine.start({ resume: false });
  const { cancels } = core;
  const outcomes = await cancelCompare(core.history, cancels, group);
  if (outcomes.length === 0) say(io, 'No task of this compare is still running.');
  for (const outcome of outcomes) {
    const label = outcome.record?.compare?.label ?? '';
    io.stdout(`${[label, outcome.localId, outcome.kind].map((c) => terminalSafe(c)).join('  ')}\n`);
    if (outcome.reason) say(io, `${label}: ${outcome.reason.message}`);
  }
  return outcomes.every((outcome) => outcome.kind === 'canceled') ? EXIT.ok : EXIT.failed;
}

function show(core: PictorCore, command: CompareCommand & { name: 'compare-show' }, io: CliIo) {
  const group = groupOf(core, command, io);
  const records = group === null ? [] : compareTasks(core.history, group);
  if (group === null || records.length === 0) {
    if (group !== null) say(io, `No such compare in the history at ${command.common.dataDir}.`);
    return EXIT.usage;
  }
  reportCompare({ core, io, json: command.common.json }, group, records);
  return worstExitCode(records);
}

/**
 * Before --param is typed (by the first target's model) and mapped (to each target's): the
 * library's kept options are put in use, and on a target's model's first use on a service that
 * publishes them, they are fetched first, as generate does, with that target's own key
 * (PICTOR_KEY_<PROVIDER>, bound to its address: compare-credentials.ts), which goes to that
 * address only. A target without its key is left out of the compare (the plan says why), so its
 * options are not asked for; a fault is a notice and the shipped options stay (models-schemas.ts).
 */
async function prepareCompare(args: readonly string[], io: CliIo): Promise<void> {
  const book = await openNamedBook(args, io.env);
  const named = compareTargetsToPrepare(args);
  if (named === null) return;
  const asked = new Set<string>();
  for (const { provider, baseUrl: typed, model: chosen } of named.targets) {
    const baseUrl = typed ?? PROVIDERS[provider].defaultBaseUrl;
    const model = chosen ?? PROVIDERS[provider].defaultModel ?? '';
    const once = JSON.stringify([provider, baseUrl, model]);
    if (baseUrl === null || isDemoEndpoint(baseUrl) || asked.has(once)) continue;
    asked.add(once);
    const keys = await CompareCredentials.create(io.env, [provider], named.baseUrls);
    if ((await keys.credentialsFor(baseUrl)) === null) continue;
    await fetchOnFirstUse(book, { provider, baseUrl, model, keys }, io);
  }
}

export const compare = declareCommand({
  options: COMPARE_OPTIONS,
  help: commandHelp(
    `compare --prompt "PROMPT" --target PROVIDER[:MODEL] --target … [--size WxH]
                                  [--quality Q] [--count N] [--base-url PROVIDER=ORIGIN]...
                                  [--param KEY=VALUE]... [--seed N]
                                  send one prompt (--prompt up to 10 times) to 2 to 6 targets at
                                  once (the same target twice is labelled #1, #2); each
                                  provider's key is read from PICTOR_KEY_<PROVIDER> (as
                                  PICTOR_KEY_FAL, PICTOR_KEY_BFL) and sent only to its address.
                                  --target demo: Pictor's built-in demo service, run inside the
                                  command (no key, free); demo:PROVIDER (as demo:fal,
                                  demo:bfl): the demo speaking that provider's
                                  dialect (each started once, on 127.0.0.1; no real key is read
                                  or sent; resume continues their tasks as the demo's). A
                                  target without a key is left out
                                  and said so; a size its service takes otherwise is adapted
                                  (1024x1024 → 1:1). --param (repeatable) is typed by the
                                  first target's model's options (pictor models show MODEL;
                                  on a model's first use, fetched first where fal or Replicate
                                  publish them, each with its target's own key; exit 2 when it
                                  refuses one) and sent to each target under its
                                  own name; --seed to each target that takes a seed; what a
                                  target does not take is said, not sent.
                                  Prints the group id, then a row per task:
                                  its target, id (Pictor's, short), task (the service's id),
                                  status, time, cost and seed (when its service said one), and
                                  under it each saved image's path; exit code the highest of
                                  its tasks'; 6 over a hard cap (nothing sent).
                                  compare show GROUP: the group's tasks again (GROUP: its id or
                                  its first characters);
                                  compare cancel GROUP [--base-url PROVIDER=ORIGIN]...: ask
                                  every running task of it to stop where its service can, with
                                  the same PICTOR_KEY_<PROVIDER> keys; list shows the group
                                  too (its compare option)`,
    ['library', 'watch', 'json', 'verbose'],
  ),
  parse: parseCompare,
  run: runCompareCommand,
  prepare: prepareCompare,
});
