/**
 * A dialect's image-input task, the same way in each: the inputs are checked and the answer
 * planned (input-checks.ts), one credit is charged, and the task is made with its planned size
 * and pixels, answered and polled exactly as the dialect's text-to-image tasks are.
 */
import { planInputs, type InputAsk } from '../input-checks';
import type { LinkRules } from '../input-links';
import { isInputProblem, type InputProblem } from '../input-problem';
import type { StoredTask } from '../task-store';
import type { DialectKit } from './dialect';
import { acceptedRequest } from './dialect';

/** What a dialect asks for. */
export interface InputTaskSpec {
  readonly ask: InputAsk;
  readonly rules: LinkRules;
  readonly prompt: string;
  /** The task's input as the dialect echoes it (Replicate's `input`). */
  readonly input: unknown;
  readonly imageCount?: number;
  readonly id?: string;
}

/** The task, or why its inputs are refused, or `no-credits`. */
export async function inputTask(
  kit: DialectKit,
  account: string,
  spec: InputTaskSpec,
): Promise<StoredTask | InputProblem | 'no-credits'> {
  const plan = await planInputs(kit.ctx, spec.ask, spec.rules);
  if (isInputProblem(plan)) return plan;
  if (!kit.charge(account)) return 'no-credits';
  const request = acceptedRequest(spec.prompt, spec.rules.model, plan.width, plan.height);
  return kit.create(account, request, {
    imageCount: spec.imageCount ?? 1,
    input: spec.input,
    plan,
    ...(spec.id === undefined ? {} : { id: spec.id }),
  });
}

/** The link rules of a dialect for a request of `account` to `model`. */
export function linkRules(
  form: 'base64' | 'data-uri' | 'oss',
  account: string,
  model: string,
  ossResolve = false,
): LinkRules {
  return {
    bareBase64: form === 'base64',
    dataUri: form === 'data-uri',
    ossResolve: form === 'oss' && ossResolve,
    account,
    model,
  };
}
