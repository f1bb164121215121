/** Every built-in provider profile, by id. */
import type { ProviderId } from '../../../../shared/domain/providers';
import { bflProfile } from './bfl';
import { comfyuiProfile } from './comfyui';
import { dashscopeProfile } from './dashscope';
import { falProfile } from './fal';
import { pictorProfile } from './pictor';
import type { ProviderProfile } from './provider-profile';
import { replicateProfile } from './replicate';

const PROFILES: Readonly<Record<ProviderId, ProviderProfile>> = {
  pictor: pictorProfile,
  fal: falProfile,
  replicate: replicateProfile,
  dashscope: dashscopeProfile,
  bfl: bflProfile,
  comfyui: comfyuiProfile,
};

export function profileOf(id: ProviderId | undefined): ProviderProfile {
  return PROFILES[id ?? 'pictor'];
}
