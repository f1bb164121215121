/**
 * IPC handlers of images as inputs and edits (shared/ipc/inputs-contract.ts): `inputs:*` takes
 * images from the page into the input store (a file main's own dialog opened, a library image, a
 * painted mask, a smaller copy) and hands back digests and gallery-scheme addresses; `edit:*`
 * plans and runs an edit on its targets (core/edit/). The page names images by digest only, never
 * a path; `edit:plan` and `edit:run` are the fan-out's handlers (fan-out-handlers.ts: each target
 * at main's own address for its service, its key from main's vault, the run planned again).
 */
import type { Settings, SettingsPatch } from '../../shared/domain/settings';
import { galleryUrl } from '../../shared/ipc/api';
import type { EditInputPayload, EditPlanOutput } from '../../shared/ipc/inputs-contract';
import { type EditDeps, type EditInputs, type EditPlan, planEdit, runEdit } from '../core/edit';
import type { TaskEngine } from '../core/engine';
import type { InputDialogs } from '../ports/input-dialogs';
import { fanOutHandlers, shownPlan, type FanOutHandlerDeps } from './fan-out-handlers';
import type { HandlersOf } from './ipc-main-bridge';

export interface InputHandlerDeps extends FanOutHandlerDeps {
  /** The inputs as main takes them (core/edit/edit-inputs.ts), over the library's input store. */
  readonly inputs: EditInputs;
  readonly engine: TaskEngine;
  /** The key for each target, the prices and caps, and the imported ComfyUI workflows. */
  readonly plan: Pick<EditDeps, 'credentials' | 'costs' | 'workflows'>;
  readonly settings: () => Settings;
  readonly updateSettings: (patch: SettingsPatch) => Promise<Settings>;
  /** Where the page loads gallery files from (`window.pictor.galleryBase`). */
  readonly galleryBase: string;
  /** Main's own open dialog; absent where the host has none (`inputs:pickFile` then finds nothing). */
  readonly dialogs?: InputDialogs;
}

export function inputHandlers(deps: InputHandlerDeps): HandlersOf<'inputs'> & HandlersOf<'edit'> {
  const { inputs } = deps;
  const editDeps: EditDeps = { ...deps.plan, inputs, settings: deps.settings };
  const edit = fanOutHandlers<EditInputPayload, EditPlan, EditPlanOutput>(deps, {
    plan: (input) => planEdit(editDeps, input),
    run: (input) => runEdit({ ...editDeps, engine: deps.engine }, input),
    show: planOutput,
  });
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
    'edit:plan': edit.plan,
    'edit:run': edit.run,
  };
}

function planOutput(plan: EditPlan): EditPlanOutput {
  return {
    ...shownPlan(plan),
    targets: plan.targets.map(({ slot, name, notes, inputs }) => ({
      ...name,
      slot,
      notes: [...notes],
      inputs: { ...inputs },
    })),
  };
}
