/**
 * IPC handlers of images as inputs and edits (shared/ipc/inputs-contract.ts): `inputs:*` takes
 * images from the page into the input store (a file main's own dialog opened, a library image, a
 * painted mask, a smaller copy) and hands back digests and gallery-scheme addresses; `edit:*`
 * plans and runs an edit on its targets (core/edit/). The page names images by digest only, never
 * a path; each target's address comes from main's settings and its key from main's vault;
 * `edit:run` plans again rather than trusting a plan the page holds.
 */
import { DEMO_ENDPOINT } from '../../shared/domain/submit-target';
import { demoStandsIn, type ProviderId } from '../../shared/domain/providers';
import type { Settings, SettingsPatch } from '../../shared/domain/settings';
import { galleryUrl } from '../../shared/ipc/api';
import type { EditInputPayload, EditPlanOutput } from '../../shared/ipc/inputs-contract';
import {
  type EditDeps,
  type EditInput,
  type EditInputs,
  type EditPlan,
  planEdit,
  runEdit,
} from '../core/edit';
import type { TaskEngine } from '../core/engine';
import type { InputDialogs } from '../ports/input-dialogs';
import type { HandlersOf } from './ipc-main-bridge';

export interface InputHandlerDeps {
  /** The inputs as main takes them (core/edit/edit-inputs.ts), over the library's input store. */
  readonly inputs: EditInputs;
  readonly engine: TaskEngine;
  /** The key for each target, and the prices and caps. */
  readonly plan: Pick<EditDeps, 'credentials' | 'costs'>;
  readonly settings: () => Settings;
  readonly updateSettings: (patch: SettingsPatch) => Promise<Settings>;
  /** The address main's settings give `provider`'s service; null: none (the demo's for today's contract). */
  readonly addressOf: (provider: ProviderId) => string | null;
  /** Where the page loads gallery files from (`window.pictor.galleryBase`). */
  readonly galleryBase: string;
  /** Main's own open dialog; absent where the host has none (`inputs:pickFile` then finds nothing). */
  readonly dialogs?: InputDialogs;
}

export function inputHandlers(deps: InputHandlerDeps): HandlersOf<'inputs'> & HandlersOf<'edit'> {
  const { inputs } = deps;
  const editDeps: EditDeps = { ...deps.plan, inputs, settings: deps.settings };
  const edit = (input: EditInputPayload) => withAddresses(deps, input);
  return {
    'inputs:pickFile': async () => {
      const path = (await deps.dialogs?.chooseInputImage()) ?? null;
      return path === null ? null : { image: await inputs.fromFile(path) };
    },
    'inputs:fromLibrary': (ref) => inputs.fromLibrary(ref),
    'inputs:putMask': async ({ source, png }) => ({ mask: await inputs.putMask(source, png) }),
    'inputs:downscale': async ({ sha256, maxSide, maxBytes }) => ({
      image: await inputs.downscale(sha256, maxSide, maxBytes),
    }),
    'inputs:address': async ({ sha256 }) => ({
      url: galleryUrl(await inputs.relativePath(sha256), deps.galleryBase),
    }),
    'inputs:consent': async ({ provider }) => {
      const given = deps.settings().publicUploadConsent;
      if (!given.includes(provider)) {
        await deps.updateSettings({ publicUploadConsent: [...given, provider] });
      }
    },
    'edit:plan': async (input) => planOutput(await planEdit(editDeps, edit(input))),
    'edit:run': async (input) => {
      const { plan, records } = await runEdit({ ...editDeps, engine: deps.engine }, edit(input));
      return {
        group: plan.group,
        items: records.map((record) => deps.engine.item(record)),
        leftOut: [...plan.leftOut],
      };
    },
  };
}

/** Each target at the address main's settings give its service (today's contract: the demo's). */
function withAddresses(deps: InputHandlerDeps, input: EditInputPayload): EditInput {
  return {
    prompt: input.prompt,
    inputs: input.inputs,
    targets: input.targets.map((target) => {
      const address =
        deps.addressOf(target.provider) ?? (demoStandsIn(target.provider) ? DEMO_ENDPOINT : null);
      return address === null ? target : { ...target, baseUrl: address };
    }),
  };
}

function planOutput(plan: EditPlan): EditPlanOutput {
  return {
    group: plan.group,
    targets: plan.targets.map(({ slot, label, notes, inputs }) => ({
      slot,
      label,
      notes: [...notes],
      inputs: { ...inputs },
    })),
    leftOut: [...plan.leftOut],
    warnings: [...plan.warnings],
    ...(plan.refusal === undefined ? {} : { refusal: plan.refusal }),
  };
}
