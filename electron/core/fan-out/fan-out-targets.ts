/**
 * A fan-out's targets as the user chose them: each named by facts (its service, the demo standing
 * in, its model, #1/#2 when the same target comes twice) that the window words at display time,
 * and by a label in English words ("fal.ai · fal-ai/flux/dev #2") for the command line and older
 * versions (shared/domain/compare.ts); each found usable (its address and its key) or left out
 * with a sentence.
 */
import {
  MAX_COMPARE_LABEL_CHARS,
  targetLabel,
  type TargetName,
} from '../../../shared/domain/compare';
import { PROVIDERS, type ProviderId } from '../../../shared/domain/providers';
import { serviceAt } from '../../../shared/domain/service-name';
import type { SubmitTarget } from '../../../shared/domain/submit-target';
import { sentence, type Sentence } from '../../../shared/i18n/sentence';
import { cleanName } from '../../../shared/text/shown-name';
import type { CredentialsProvider } from '../../ports/credentials';
import { checkTarget } from '../engine';
import { UserFacingError } from '../errors';
import { isDemoEndpoint } from '../service';

/** What every fan-out's target names: a service, its address, a model. */
export interface FanOutTarget {
  readonly provider: ProviderId;
  readonly model?: string | undefined;
  /** The service's address (a proxy, the demo); absent: the provider's own. */
  readonly baseUrl?: string | undefined;
}

/** The model a target names, or its service's default. */
export function modelOf(target: FanOutTarget): string | undefined {
  return target.model ?? PROVIDERS[target.provider].defaultModel ?? undefined;
}

/**
 * A target's service as its label names it: "fal.ai", the user's own by its address's host
 * ("images.example.com"), "fal.ai (demo)" on the built-in demo (a compare may set fal's demo
 * beside fal itself; an edit's target goes there while the demo stands in for its service).
 */
function serviceOf(target: FanOutTarget): string {
  const address = target.baseUrl ?? '';
  if (isDemoEndpoint(address)) return `${PROVIDERS[target.provider].label} (demo)`;
  return serviceAt(target.provider, address);
}

/**
 * Each target's name: "fal.ai · fal-ai/flux/dev", with #1, #2… where the same label comes more
 * than once; a target on the built-in demo says so (the demo standing in), a compare's and an
 * edit's alike.
 */
export function labelsOf(targets: readonly FanOutTarget[]): TargetName[] {
  const plain = targets.map((target) => targetLabel(serviceOf(target), modelOf(target)));
  const seen = new Map<string, number>();
  return targets.map((target, index) => {
    const label = plain[index] ?? '';
    const twice = plain.filter((other) => other === label).length > 1;
    const n = (seen.get(label) ?? 0) + 1;
    seen.set(label, n);
    const suffix = twice ? ` #${n}` : '';
    const kept = cleanName(label, MAX_COMPARE_LABEL_CHARS - suffix.length) ?? 'target';
    const model = modelOf(target);
    return {
      label: `${kept}${suffix}`,
      service: target.provider,
      ...(isDemoEndpoint(target.baseUrl ?? '') ? { demo: true as const } : {}),
      ...(model === undefined ? {} : { model }),
      ...(twice ? { nth: n } : {}),
    };
  });
}

/** The checked target, or the sentence that leaves it out. */
export async function usableTarget(
  credentials: CredentialsProvider,
  wanted: FanOutTarget,
): Promise<SubmitTarget | { readonly reason: Sentence }> {
  const endpoint = wanted.baseUrl ?? PROVIDERS[wanted.provider].defaultBaseUrl;
  const service = PROVIDERS[wanted.provider].label;
  if (!endpoint) return { reason: sentence('error.compare.noAddress', { service }) };
  const target = { provider: wanted.provider, endpoint };
  try {
    const checked = await checkTarget(credentials, target);
    return { provider: wanted.provider, endpoint: checked.endpoint };
  } catch (error) {
    // The check's refusals are sentences (target-check.ts); anything else is not a left-out target.
    if (error instanceof UserFacingError && error.sentence) return { reason: error.sentence };
    throw error;
  }
}
