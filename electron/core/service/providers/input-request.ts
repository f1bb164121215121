/**
 * What every profile checks before it builds a request with input images: that the model takes
 * images at all (shared/domain/model-capabilities.ts), does the operation asked, reads the mask in
 * a convention the task has, takes that many references and that upscale factor, and that the
 * images were prepared for sending (`sent`, core/inputs/). A request that fails any is refused
 * with a ServiceError of kind `config` and a sentence (shared/i18n/errors/provider-inputs.ts):
 * nothing leaves. The profile then builds its body from the checked task alone.
 */
import type { Expand, ImageInputs } from '../../../../shared/domain/image-inputs';
import type { ModelCapabilities } from '../../../../shared/domain/model-capabilities';
import { capabilitiesOf, safetyWithInput } from '../../../../shared/domain/model-capabilities';
import type { ProviderId } from '../../../../shared/domain/providers';
import { PROVIDERS } from '../../../../shared/domain/providers';
import type { MainParams } from '../../../../shared/i18n/main-catalogue';
import type { MainMessageKey } from '../../../../shared/i18n/main-messages';
import { sentence } from '../../../../shared/i18n/sentence';
import type { GenerationRequest } from '../../../../shared/service/wire';
import { ServiceError } from '../service-error';
import type { SentInputs } from './provider-profile';

/** A task with input images that its model can take, and its images as they are sent. */
export interface InputTask {
  readonly model: string;
  readonly service: string;
  readonly prompt: string;
  readonly capabilities: ModelCapabilities;
  readonly inputs: ImageInputs;
  readonly sent: SentInputs;
}

/** @throws ServiceError of kind `config` with `key`'s sentence: nothing was sent. */
function refuseInputs(key: MainMessageKey, params?: MainParams): never {
  throw new ServiceError({
    kind: 'config',
    message: sentence(key, params),
    mayHaveReachedService: false,
  });
}

/**
 * The task `request` (which has `inputs`) asks of `model` of `provider`, checked.
 * @throws ServiceError of kind `config` when the model cannot take it as it is.
 */
export function inputTask(
  provider: ProviderId,
  model: string,
  request: GenerationRequest & { readonly inputs: ImageInputs },
  sent: SentInputs | undefined,
): InputTask {
  const { inputs } = request;
  const named = { model: model.slice(0, 80), service: PROVIDERS[provider].label };
  const capabilities = capabilitiesOf(provider, model);
  if (!capabilities) refuseInputs('error.providerInputs.noImages', named);
  if (!capabilities.operations.includes(inputs.operation)) {
    refuseInputs('error.providerInputs.operation', { ...named, operation: inputs.operation });
  }
  const references = inputs.references?.length ?? 0;
  if (references > capabilities.references) {
    refuseInputs('error.providerInputs.references', {
      ...named,
      most: capabilities.references,
      count: references,
    });
  }
  if (inputs.operation === 'fill') checkMask(capabilities, inputs, named);
  if (inputs.operation === 'upscale') {
    const factor = inputs.factor ?? 0;
    if (!capabilities.upscale.some((offered) => offered === factor)) {
      refuseInputs('error.providerInputs.factor', { ...named, factor });
    }
  }
  if (!sent || !preparedFor(inputs, sent)) refuseInputs('error.providerInputs.notPrepared');
  return { ...named, prompt: request.prompt, capabilities, inputs, sent };
}

/** A fill needs its mask in the convention the model reads. */
function checkMask(capabilities: ModelCapabilities, inputs: ImageInputs, named: MainParams): void {
  const has = capabilities.mask === 'alpha-edit' ? inputs.maskAlpha : inputs.mask;
  if (capabilities.mask === undefined || has === undefined) {
    refuseInputs('error.providerInputs.maskConvention', {
      ...named,
      convention: capabilities.mask === 'alpha-edit' ? 'alpha' : 'white',
    });
  }
}

/** Whether `sent` carries every image the operation needs, and no reference more or less. */
function preparedFor(inputs: ImageInputs, sent: SentInputs): boolean {
  const filled = (text: string | undefined): boolean => typeof text === 'string' && text !== '';
  if (!filled(sent.source)) return false;
  if (inputs.operation === 'fill' && !filled(sent.mask)) return false;
  const references = inputs.references?.length ?? 0;
  return sent.references.length === references && sent.references.every(filled);
}

/**
 * The pixels an outpaint adds on each side, each at most `most` when the model documents a limit.
 * @throws ServiceError of kind `config` when none is asked, or a side is over the limit.
 */
export function expandOf(task: InputTask, most?: number): Expand {
  const expand = task.inputs.expand;
  const sides = expand ? [expand.top, expand.right, expand.bottom, expand.left] : [];
  if (!expand || sides.every((pixels) => pixels === 0)) {
    refuseInputs('error.providerInputs.expandMissing');
  }
  if (most !== undefined && sides.some((pixels) => pixels > most)) {
    refuseInputs('error.providerInputs.expandTooLarge', {
      model: task.model,
      service: task.service,
      most,
    });
  }
  return expand;
}

/** The `safety_tolerance` to send, or nothing for a model that takes none. */
export function safetyOf(task: InputTask): number | undefined {
  return safetyWithInput(task.capabilities, task.inputs.safety)?.sent;
}

/** The request's `inputs`, when it has them (a request without is today's text-to-image). */
export function withInputs(
  request: GenerationRequest,
): (GenerationRequest & { readonly inputs: ImageInputs }) | null {
  return request.inputs ? { ...request, inputs: request.inputs } : null;
}
