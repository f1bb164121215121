/**
 * `pictor smart ls | rm | create` (triage-args.ts parses them) on the core's smart boards
 * (electron/core/triage/smart-boards.ts): the same checks and sentences as the window's. A rule
 * naming a board or tag that is gone is said on stderr, wherever a smart board is shown or run.
 */
import {
  isGroup,
  type SmartBoardEntry,
  type SmartRule,
  type SmartRules,
} from '../../shared/domain/smart-board';
import { serviceRuleTest } from '../../shared/domain/smart-service-rule';
import { englishMoney, englishText } from '../../shared/i18n/sentence';
import type { PictorCore } from '../core/pictor-core';
import { EXIT } from './cli-report';
import type { CliIo } from './cli-io';
import { jsonSafe, terminalSafe } from './terminal-text';
import type { SmartAction } from './triage-args';
import { lookedUp } from '../core/command-line';

/** Runs the action; `json`: `ls` writes one JSON object per smart board. */
export function smartCommand(
  core: PictorCore,
  action: SmartAction,
  io: CliIo,
  json: boolean,
): number {
  switch (action.kind) {
    case 'ls':
      for (const entry of core.smartBoards.list()) {
        if (json) {
          io.stdout(`${jsonLineOf(entry)}\n`);
          continue;
        }
        io.stdout(`${terminalSafe(entry.name)}\t${terminalSafe(describeEntry(entry))}\n`);
        warnMissing(entry, io);
      }
      return EXIT.ok;
    case 'rm':
      lookedUp('smart board', action.name, () => core.smartBoards.delete(action.name));
      io.stdout(`Deleted the smart board (no image was changed).\n`);
      return EXIT.ok;
    case 'create': {
      const entry = core.smartBoards.create(action.name, action.rules);
      io.stdout(
        `${terminalSafe(`Created the smart board ${entry.name}: ${describeEntry(entry)}.`)}\n`,
      );
      warnMissing(entry, io);
      return EXIT.ok;
    }
  }
}

/** A smart board as `smart ls --json` writes it: its problems in English. */
function jsonLineOf(entry: SmartBoardEntry): string {
  const { id, name, createdAt, rules } = entry;
  const problems = problemsOf(entry).map(englishText);
  return jsonSafe(JSON.stringify({ id, name, createdAt, rules, problems }));
}

/** Each sentence of a smart board's rules that name what is gone (or that cannot be read). */
function problemsOf(entry: SmartBoardEntry) {
  if (entry.problem) return [entry.problem];
  return (entry.report?.items ?? []).flatMap((item) =>
    'rules' in item ? item.rules.flatMap((rule) => rule.problems) : item.problems,
  );
}

/**
 * The rules of the smart board named `name` (refused when there is none); the ones that name
 * what is gone are said on stderr.
 */
export function smartRules(core: PictorCore, name: string, io: CliIo): SmartRules {
  const entry = lookedUp('smart board', name, () => core.smartBoards.get(name));
  const rules = entry.rules ?? core.smartBoards.rulesOf(name);
  warnMissing(entry, io);
  return rules;
}

/** Says on stderr what the smart board's rules name that is gone. */
function warnMissing(entry: SmartBoardEntry, io: CliIo): void {
  for (const problem of problemsOf(entry)) {
    io.stderr(`${terminalSafe(`${entry.name}: ${englishText(problem)}`)}\n`);
  }
}

function describeEntry(entry: SmartBoardEntry): string {
  return entry.rules === null ? '(rules that cannot be read)' : describeRules(entry.rules);
}

/** The rules in one line: `rating >= 4 AND (tags any: cat, dog OR flag pick)`. */
function describeRules(rules: SmartRules): string {
  const glue = (match: 'all' | 'any') => (match === 'all' ? ' AND ' : ' OR ');
  return rules.items
    .map((item) =>
      isGroup(item)
        ? `(${item.rules.map(describeRule).join(glue(item.match))})`
        : describeRule(item),
    )
    .join(glue(rules.match));
}

function describeRule(rule: SmartRule): string {
  const bounds = (min: number | undefined, max: number | undefined, show: (n: number) => string) =>
    [min === undefined ? '' : `>= ${show(min)}`, max === undefined ? '' : `<= ${show(max)}`]
      .filter(Boolean)
      .join(' and ');
  switch (rule.kind) {
    case 'prompt':
      return `prompt has "${rule.words}"`;
    case 'service': {
      const test = serviceRuleTest(rule);
      return `service ${test.service}${test.demoToo ? ' or the built-in demo standing in for it' : ''}`;
    }
    case 'model':
      return `model ${rule.model}`;
    case 'date': {
      const day = (ms: number) => new Date(ms).toISOString();
      return `date ${bounds(rule.from, rule.to, day)}`;
    }
    case 'rating':
      return `rating ${rule.op} ${String(rule.value)}`;
    case 'flag':
      return `flag ${rule.flag}`;
    case 'tags':
      return `tags ${rule.mode}: ${rule.tags.join(', ')}`;
    case 'board':
      return `board ${rule.board}`;
    case 'unfiled':
      return 'unfiled';
    case 'cost':
      return `cost ${bounds(rule.min, rule.max, (micros) => englishMoney(micros, rule.unit))}`;
    case 'credentials':
      return `Content Credentials ${rule.verdict}`;
    case 'size':
      return `${rule.measure} ${bounds(rule.min, rule.max, String)}`;
  }
}
