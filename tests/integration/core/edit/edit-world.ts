/**
 * What the edit plan's tests share: an input image of a given size (its digest made from a
 * number), an input store that knows exactly the images it is given, and the plan's deps over a
 * compare world (compare-harness.ts) with the settings a test asks for.
 */
import { createHash } from 'node:crypto';
import type { InputImage } from '../../../../shared/domain/image-inputs';
import type { ProviderId } from '../../../../shared/domain/providers';
import type { EditDeps, StoredInputs } from '../../../../electron/core/edit/edit-plan';
import type { compareWorld } from '../../compare/compare-harness';

type World = Awaited<ReturnType<typeof compareWorld>>;

/** Input image number `n`: a PNG of `width`×`height` pixels and `bytes` bytes, by default small. */
export function image(
  n: number,
  size: { width?: number; height?: number; bytes?: number } = {},
): InputImage {
  return {
    sha256: createHash('sha256').update(`input ${n}`).digest('hex'),
    mime: 'image/png',
    width: size.width ?? 512,
    height: size.height ?? 512,
    bytes: size.bytes ?? 40_000,
  };
}

/** A store that holds `images` and nothing else. */
export function memoryInputs(images: readonly InputImage[]): StoredInputs {
  const held = new Map(images.map((one) => [one.sha256, one]));
  return { describe: (sha256) => held.get(sha256) ?? null };
}

/** The plan's deps over `world`'s credentials and costs, uploads allowed and no consent given. */
export function editDeps(
  world: World,
  inputs: StoredInputs,
  settings: { neverUploadInputs?: boolean; publicUploadConsent?: ProviderId[] } = {},
): EditDeps {
  return {
    credentials: world.credentials,
    costs: world.core.costs,
    inputs,
    settings: () => ({
      neverUploadInputs: settings.neverUploadInputs ?? false,
      publicUploadConsent: settings.publicUploadConsent ?? [],
    }),
  };
}
