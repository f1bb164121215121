/**
 * A smart board's rules (shared/domain/smart-board.ts) as a WHERE fragment of the image query
 * (history-query.ts), over the images table as `i`: each group parenthesised, its rules joined
 * with AND or OR, the top level likewise. A rule that is a filter the image query already has
 * (prompt words, service, model, dates, rating, flag, tags, board, unfiled, whether an image has
 * Content Credentials) is compiled by the query's own code, given as `fields`; the rest (cost,
 * size, a verification's verdict) is here. Values are always bound; the only text spliced in is
 * fixed fragments, so a rule never changes the SQL around it.
 *
 * A rule naming a tag or board the library no longer has compiles as that filter does: it
 * matches nothing (none of the tags: every image). Cost, size and verdict have no column of
 * their own: the first reads the task's cost columns (history-schema.ts v7) by its row id, the
 * others the image's entry in its task's record, one primary-key read per image tested.
 */
import type { SmartItem, SmartRule, SmartRules } from '../../../shared/domain/smart-board';
import { isGroup } from '../../../shared/domain/smart-board';
import { serviceRuleTest } from '../../../shared/domain/smart-service-rule';
import { imageServiceTest } from './service-filter';
import type { ServiceId } from '../../../shared/domain/service-id';
import type { SqlValue } from './sqlite-connection';
import type { TriageQuery } from './triage-filter';

/** The image query's filters a rule is one of (history-query.ts `ImageQuery`). */
export interface RuleFields extends TriageQuery {
  search?: string;
  provider?: ServiceId;
  model?: string;
  from?: number;
  to?: number;
  contentCredentials?: boolean;
}

/** A WHERE fragment and its bound values (history-query.ts `SqlFilter`). */
interface Fragment {
  readonly where: string;
  readonly params: SqlValue[];
}

/** Compiles the image query's own filters (see the file's comment). */
type FieldsFilter = (fields: RuleFields) => Fragment;

/** The rules as one parenthesised test. */
export function smartFilter(rules: SmartRules, fields: FieldsFilter): Fragment {
  return joined(
    rules.match,
    rules.items.map((item: SmartItem) =>
      isGroup(item)
        ? joined(
            item.match,
            item.rules.map((rule) => ruleFilter(rule, fields)),
          )
        : ruleFilter(item, fields),
    ),
  );
}

/** The parts joined by AND (`all`) or OR (`any`); no part: every image, or none. */
function joined(match: 'all' | 'any', parts: readonly Fragment[]): Fragment {
  if (parts.length === 0) return { where: match === 'all' ? '1' : '0', params: [] };
  const glue = match === 'all' ? ' AND ' : ' OR ';
  return {
    where: `(${parts.map((part) => `(${part.where})`).join(glue)})`,
    params: parts.flatMap((part) => part.params),
  };
}

function ruleFilter(rule: SmartRule, fields: FieldsFilter): Fragment {
  switch (rule.kind) {
    case 'prompt':
      return fields({ search: rule.words });
    case 'service': {
      const test = serviceRuleTest(rule);
      return test.demoToo
        ? imageServiceTest(test.service, true)
        : fields({ provider: test.service });
    }
    case 'model':
      return fields({ model: rule.model });
    case 'date':
      return fields({ from: rule.from, to: rule.to });
    case 'rating':
      return fields({ rating: { op: rule.op, value: rule.value } });
    case 'flag':
      return fields({ flag: rule.flag });
    case 'tags':
      return fields({ tags: { mode: rule.mode, keys: rule.tags } });
    case 'board':
      return fields({ board: rule.board });
    case 'unfiled':
      return fields({ unfiled: true });
    case 'credentials':
      return credentialsFilter(rule.verdict, fields);
    case 'cost':
      return costFilter(rule);
    case 'size':
      return sizeFilter(rule);
  }
}

/** The image's entry of its task's record, at `field` (a path below the image, bound). */
const IMAGE_FIELD = `json_extract(r.record, '$.images[' || i.idx || '].' || ?)`;
const OF_TASK = 'r.id = i.task_row';

function credentialsFilter(
  verdict: Extract<SmartRule, { kind: 'credentials' }>['verdict'],
  fields: FieldsFilter,
): Fragment {
  if (verdict === 'present' || verdict === 'absent') {
    return fields({ contentCredentials: verdict === 'present' });
  }
  const state = {
    trusted: 'valid',
    unverified: 'valid',
    tampered: 'invalid',
    unreadable: 'unreadable',
  };
  const tests = [`${IMAGE_FIELD} = ?`];
  const params: SqlValue[] = ['contentCredentials.state', state[verdict]];
  if (verdict === 'trusted' || verdict === 'unverified') {
    tests.push(`${IMAGE_FIELD} = ?`);
    params.push('contentCredentials.trusted', verdict === 'trusted' ? 1 : 0);
  }
  // The flag first: its partial index leaves only the images with a manifest to read.
  const inner = fields({ contentCredentials: true });
  return {
    where: `${inner.where} AND EXISTS (SELECT 1 FROM tasks r WHERE ${OF_TASK} AND ${tests.join(' AND ')})`,
    params: [...inner.params, ...params],
  };
}

/** The range's tests on `value` (at least one bound: the rule was checked). */
function range(value: string, min: number | undefined, max: number | undefined): Fragment {
  const tests: string[] = [];
  const params: SqlValue[] = [];
  if (min !== undefined) {
    tests.push(`${value} >= ?`);
    params.push(min);
  }
  if (max !== undefined) {
    tests.push(`${value} <= ?`);
    params.push(max);
  }
  return { where: tests.join(' AND '), params };
}

function costFilter(rule: Extract<SmartRule, { kind: 'cost' }>): Fragment {
  const bounds = range('r.cost_micros', rule.min, rule.max);
  return {
    where: `EXISTS (SELECT 1 FROM tasks r WHERE ${OF_TASK} AND r.cost_unit = ? AND r.cost_micros IS NOT NULL AND ${bounds.where})`,
    params: [rule.unit, ...bounds.params],
  };
}

function sizeFilter(rule: Extract<SmartRule, { kind: 'size' }>): Fragment {
  const min = rule.min === undefined ? [] : [`${IMAGE_FIELD} >= ?`];
  const max = rule.max === undefined ? [] : [`${IMAGE_FIELD} <= ?`];
  const params: SqlValue[] = [];
  if (rule.min !== undefined) params.push(rule.measure, rule.min);
  if (rule.max !== undefined) params.push(rule.measure, rule.max);
  return {
    where: `EXISTS (SELECT 1 FROM tasks r WHERE ${OF_TASK} AND ${[...min, ...max].join(' AND ')})`,
    params,
  };
}
