/**
 * Which service a task row is on, as the history's and the ledger's queries filter by it: the
 * SQL side of shared/domain/service-id.ts's one rule. A row whose endpoint is one of the built-in
 * demo's is the demo's, whatever dialect it spoke; any other is its provider's. A task row reads
 * its provider from its record (no column holds it; a record written before services had
 * profiles has none: today's contract's, `pictor`); a ledger row keeps it in a column.
 *
 * The demo's endpoints are fixed text of the code (shared/domain/submit-target.ts), spliced as
 * literals so the statement cache keeps one entry per shape; a value the user gives is bound.
 */
import { DEMO_ENDPOINTS, DEMO_SERVICE_ID, type ServiceId } from '../../../shared/domain/service-id';
import type { SqlValue } from './sqlite-connection';

/** The endpoints as an SQL list; each is checked to be plain text no quote can end. */
const DEMO_LIST = DEMO_ENDPOINTS.map((endpoint) => {
  if (!/^[a-z:]+$/.test(endpoint)) throw new Error(`Unexpected demo endpoint: ${endpoint}`);
  return `'${endpoint}'`;
}).join(', ');

/** A row's columns the test reads: its endpoint, and its provider (an SQL expression). */
export interface ServiceColumns {
  readonly endpoint: string;
  readonly provider: string;
}

/** A task row (alias `alias`) of the history: the provider read from its record. */
export const taskServiceColumns = (alias: string): ServiceColumns => ({
  endpoint: `${alias}endpoint`,
  provider: `coalesce(json_extract(${alias}record, '$.provider'), 'pictor')`,
});

/** A ledger row (alias `l`): both kept in columns. */
export const LEDGER_SERVICE_COLUMNS: ServiceColumns = {
  endpoint: 'l.endpoint',
  provider: 'l.provider',
};

/**
 * The WHERE test that a row is on `service`, and its bound values. `demoToo`: the provider's
 * tasks with those of the built-in demo standing in for it (its dialect's endpoint), as every
 * filter by service tested before the demo was a service of its own (a smart board saved then
 * keeps that meaning: shared/domain/smart-service-rule.ts).
 */
export function serviceTest(
  columns: ServiceColumns,
  service: ServiceId,
  demoToo = false,
): { readonly where: string; readonly params: SqlValue[] } {
  if (service === DEMO_SERVICE_ID) {
    return { where: `${columns.endpoint} IN (${DEMO_LIST})`, params: [] };
  }
  if (demoToo) return { where: `${columns.provider} = ?`, params: [service] };
  return {
    where: `${columns.endpoint} NOT IN (${DEMO_LIST}) AND ${columns.provider} = ?`,
    params: [service],
  };
}

/**
 * The same test for an image (alias `i`) by its task's row: some image queries walk images alone
 * (no tasks joined), so the tasks are asked apart.
 */
export function imageServiceTest(
  service: ServiceId,
  demoToo = false,
): { readonly where: string; readonly params: SqlValue[] } {
  const test = serviceTest(taskServiceColumns(''), service, demoToo);
  return { where: `i.task_row IN (SELECT id FROM tasks WHERE ${test.where})`, params: test.params };
}
