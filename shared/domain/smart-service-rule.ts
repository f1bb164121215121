/**
 * A smart board's service rule, in the two forms a library may hold. `service` (what this version
 * writes): the tasks of that service as shared/domain/service-id.ts names it, the built-in demo's
 * apart. `provider` (a board saved before the demo was a service of its own): what it tested when
 * it was saved, that provider's tasks together with those of the built-in demo standing in for it;
 * `demo` there (only ever written by a build that had the demo apart) is the demo's.
 *
 * A board keeps the form it was saved in, so it lists the same images in every version that reads
 * it. An older Pictor reads no `service` form (its rule schema is strict, `provider` required): it
 * says the board's rules cannot be read and lists nothing, rather than read the board with the
 * demo's tasks in.
 */
import { z } from 'zod';
import { DEMO_SERVICE_ID, serviceIdSchema, type ServiceId } from './service-id';

/** The rule's schema: one of the two forms ({@link oneServiceForm} refuses both and neither). */
export function serviceRuleSchema() {
  return z.strictObject({
    kind: z.literal('service'),
    service: serviceIdSchema().optional(),
    provider: serviceIdSchema().optional(),
  });
}

type ServiceRule = z.infer<ReturnType<typeof serviceRuleSchema>>;

/** Whether the rule holds exactly one of its forms. */
export function oneServiceForm(rule: ServiceRule): boolean {
  return (rule.service === undefined) !== (rule.provider === undefined);
}

/** What the rule tests: a service, and whether the demo standing in for it counts too. */
export function serviceRuleTest(rule: ServiceRule): {
  readonly service: ServiceId;
  readonly demoToo: boolean;
} {
  if (rule.service !== undefined) return { service: rule.service, demoToo: false };
  const service = rule.provider ?? DEMO_SERVICE_ID;
  return { service, demoToo: service !== DEMO_SERVICE_ID };
}
