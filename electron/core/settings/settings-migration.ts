/**
 * Settings files of earlier versions, read as today's. Until services were one model, the user's
 * own service (today's contract) kept its address in a field of its own, `baseUrl`; it is now that
 * service's entry among every service's addresses (`serviceBaseUrls`), like any other's. The file
 * is rewritten in today's shape at the next change of a setting.
 */
import { DEFAULT_PROVIDER } from '../../../shared/domain/providers';

/** The field earlier versions kept the user's own service's address in. */
const EARLIER_ADDRESS = 'baseUrl';

const isRecord = (value: unknown): value is Record<string, unknown> =>
  typeof value === 'object' && value !== null && !Array.isArray(value);

/**
 * `record` in today's shape: an earlier `baseUrl` moved to `serviceBaseUrls` as the user's own
 * service's address, unless that already has one (a file written by today's version wins). The
 * address is moved as written: it is checked with the others when read.
 */
export function migrateStoredSettings(record: Record<string, unknown>): Record<string, unknown> {
  if (!Object.hasOwn(record, EARLIER_ADDRESS)) return record;
  const { [EARLIER_ADDRESS]: earlier, ...rest } = record;
  const addresses = isRecord(rest.serviceBaseUrls) ? rest.serviceBaseUrls : {};
  const own = addresses[DEFAULT_PROVIDER];
  const given = typeof own === 'string' && own.trim() !== '';
  if (given || typeof earlier !== 'string' || earlier.trim() === '') return rest;
  return { ...rest, serviceBaseUrls: { ...addresses, [DEFAULT_PROVIDER]: earlier } };
}
