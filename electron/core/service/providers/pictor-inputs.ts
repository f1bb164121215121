/**
 * Today's contract with input images. The spec names no image fields, so the only model that
 * takes them is the built-in demo's own `demo-edit`, which reads them as OpenAI-style edits do:
 * `POST /v1/images/generations` with the operation, the image and its mask as `data:` URIs (the
 * mask an RGBA PNG whose alpha is 0 where the image is edited), references, and the upscale factor.
 */
import type { ProfileRequest } from './provider-profile';
import type { InputTask } from './input-request';

/** The submit of `task`. */
export function pictorInputSubmit(task: InputTask): ProfileRequest {
  const { sent, inputs } = task;
  return {
    method: 'POST',
    target: '/v1/images/generations',
    body: {
      model: task.model,
      prompt: task.prompt,
      operation: inputs.operation,
      image: sent.source,
      ...(inputs.operation === 'fill' ? { mask: sent.mask } : {}),
      ...(sent.references.length > 0 ? { reference_images: [...sent.references] } : {}),
      ...(inputs.operation === 'upscale' ? { factor: inputs.factor } : {}),
    },
  };
}
