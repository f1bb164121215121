/**
 * The services v18's triggers know are written out in newer-service-schema.ts, not read from
 * PROVIDER_IDS: a later version adds services there, and a library it creates must still note
 * the tasks of the services this version does not know. They stay this version's list: a
 * prefix of PROVIDER_IDS (services are added at its end, never removed).
 */
import { describe, expect, it } from 'vitest';
import { SERVICES_AT_V18 } from '../../../../electron/core/history/newer-service-schema';
import { PROVIDER_IDS } from '../../../../shared/domain/providers';

describe('the services v18 knew', () => {
  it('are the first of PROVIDER_IDS, in order', () => {
    expect(PROVIDER_IDS.slice(0, SERVICES_AT_V18.length)).toEqual(SERVICES_AT_V18);
  });
});
