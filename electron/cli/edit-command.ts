/**
 * `pictor edit` and `pictor upscale`: the images read and kept in the input store, the model and
 * the way the inputs travel chosen (edit-model.ts), everything refused before any request
 * leaves; then the edit core's plan and run (core/edit, the app's own) on the one service named
 * as generate names it, and the task watched as generate watches it. Prints the saved images'
 * paths; --json one object per task with its id, the parent image, the operation, and the way
 * each input went.
 */
import { inputImagesOf, type ImageInputs, type InputImage } from '../../shared/domain/image-inputs';
import { needsOf } from '../../shared/domain/model-capabilities';
import { PROVIDERS } from '../../shared/domain/providers';
import { DEMO_ENDPOINT } from '../../shared/domain/submit-target';
import type { TaskRecord } from '../../shared/domain/task-record';
import { englishText } from '../../shared/i18n/sentence';
import { type EditDeps, EditInputError, type EditPlan, planEdit, runEdit } from '../core/edit';
import { jsonLine } from './cli-report';
import { runOnService, watch, type Run } from './commands';
import type { CliIo } from './cli-io';
import { declareCommand } from './command-declaration';
import { RUN_OPTIONS, commandHelp } from './command-help';
import { IMAGE_COMMAND_OPTIONS, parseImageCommand, type ImageCommand } from './edit-args';
import { MASK_WORDS, chooseModel, routeOf } from './edit-model';
import { readImage, readMask, type EditSourceDeps } from './edit-sources';
import { say, sayPlan, sendOrRefuse } from './fan-out-command';
import type { MaskConvention } from '../../shared/domain/model-capabilities';
import type { EnvCredentials } from './env-credentials';
import { jsonSafe } from './terminal-text';

/** Runs an edit or an upscale; the exit code as generate's. */
function runImageCommand(command: ImageCommand, io: CliIo): Promise<number> {
  return runOnService(command, io, (run, credentials) => imageCommand(run, credentials, command));
}

/** The task's inputs from the command line: the source, the mask, the references, the factor. */
async function inputsOf(
  deps: EditSourceDeps,
  command: ImageCommand,
): Promise<{ inputs: ImageInputs; maskGiven: MaskConvention | null }> {
  const { image: source, parent } = await readImage(deps, command.source, 'The image');
  const shared = { source, route: command.route, ...(parent ? { parent } : {}) };
  if (command.name === 'upscale')
    return { inputs: { operation: 'upscale', factor: command.factor, ...shared }, maskGiven: null };
  const mask = command.mask === undefined ? null : await readMask(deps, command.mask, source);
  const references: InputImage[] = [];
  for (const ref of command.references)
    references.push((await readImage(deps, ref, 'A --ref image')).image);
  const inputs: ImageInputs = {
    operation: mask ? 'fill' : 'edit',
    ...shared,
    // The mask as given, and converted to the other convention: the plan sends the one the
    // model reads (edit-plan.ts imagesFor).
    ...(mask ? { [mask.convention === 'alpha-edit' ? 'maskAlpha' : 'mask']: mask.image } : {}),
    ...(mask?.other
      ? { [mask.convention === 'alpha-edit' ? 'mask' : 'maskAlpha']: mask.other }
      : {}),
    ...(references.length > 0 ? { references } : {}),
  };
  return { inputs, maskGiven: mask?.convention ?? null };
}

/** The inputs with the mask in the convention the model reads only (the other one dropped). */
function maskFor(inputs: ImageInputs, reads: MaskConvention | undefined): ImageInputs {
  if (reads === undefined || !inputs.mask || !inputs.maskAlpha) return inputs;
  const { mask, maskAlpha, ...rest } = inputs;
  return reads === 'alpha-edit' ? { ...rest, maskAlpha } : { ...rest, mask };
}

async function imageCommand(
  run: Run,
  credentials: EnvCredentials,
  command: ImageCommand,
): Promise<number> {
  const { core, io } = run;
  const put = (bytes: Uint8Array) => core.inputs.put(bytes);
  const { inputs: offered, maskGiven: given } = await inputsOf(
    { put, history: core.history, gallery: core.gallery },
    command,
  );
  const provider = credentials.provider;
  // A ComfyUI model is an imported workflow: it takes an image when its map names one.
  const workflow =
    PROVIDERS[provider].modelsAreWorkflows === true && command.model !== undefined
      ? await core.workflows.lookup(command.model)
      : undefined;
  const { model, capabilities } = chooseModel(provider, command.model, needsOf(offered), workflow);
  const inputs = maskFor(offered, capabilities.mask);
  if (given && capabilities.mask && capabilities.mask !== given)
    say(
      io,
      `${model} reads ${MASK_WORDS[capabilities.mask]}; the --mask file was converted to it.`,
    );
  const settingsFile = core.editSettings;
  const settings = settingsFile.now();
  const asked = {
    route: command.route,
    neverUpload: settings.neverUploadInputs,
    consented: command.allowPublicUpload || settings.publicUploadConsent.includes(provider),
  };
  const way = routeOf(provider, capabilities, inputImagesOf(inputs), asked);
  if (way.route === 'upload' && way.transport.publicLinks && command.allowPublicUpload)
    settingsFile.consent(provider);
  const deps: EditDeps = {
    credentials,
    costs: core.costs,
    inputs: core.editInputs,
    settings: () => settingsFile.now(),
    workflows: core.workflows,
  };
  const prompt = command.prompt || `Upscale ×${command.name === 'upscale' ? command.factor : ''}`;
  const baseUrl = run.builtInDemo ? DEMO_ENDPOINT : (credentials.namedBaseUrl ?? undefined);
  const input = { prompt, inputs, targets: [{ provider, model, ...(baseUrl ? { baseUrl } : {}) }] };
  const plan = await planEdit(deps, input, { toSend: true });
  const refused = sayPlan(io, plan, (left) => `${left.label}: ${englishText(left.reason)}`);
  if (refused !== null) return refused;
  core.engine.start({ resume: false });
  const send = async () => (await runEdit({ ...deps, engine: core.engine }, input)).records;
  const records = await sendOrRefuse(io, send, EditInputError);
  if (typeof records === 'number') return records;
  sayRoute(io, plan);
  return watch(run, records, jsonOf(plan));
}

/** Where the inputs go, said before the wait (an upload's public links and lifetime too). */
function sayRoute(io: CliIo, plan: EditPlan): void {
  for (const target of plan.targets) {
    const { route, publicLinks, lifetimeMs } = target.inputs;
    const how =
      route === 'inline'
        ? 'inside the request'
        : `by the service's upload${publicLinks ? ' (public links)' : ''}${lifetimeMs ? `, usable for ${lifetimeMs / 3_600_000} h` : ''}`;
    say(io, `${target.label}: the input images go ${how}.`);
  }
}

/** Each input of a task and the way it went. */
function inputsJson(inputs: ImageInputs | undefined, route: string | null) {
  if (!inputs) return [];
  const one = (role: string) => (image: InputImage) => ({
    role,
    sha256: image.sha256,
    mime: image.mime,
    route,
  });
  return [
    one('source')(inputs.source),
    ...(inputs.mask ? [one('mask')(inputs.mask)] : []),
    ...(inputs.maskAlpha ? [one('maskAlpha')(inputs.maskAlpha)] : []),
    ...(inputs.references ?? []).map(one('reference')),
  ];
}

/** generate's --json line of a task, with the edit's own fields. */
function jsonOf(
  plan: EditPlan,
): (record: TaskRecord, resolve: (relative: string) => string) => string {
  return (record, resolve) => {
    const target = plan.targets.find((one) => one.target.endpoint === record.endpoint);
    const route = target?.inputs.route ?? null;
    const { inputs } = record.request;
    const line = JSON.parse(jsonLine(record, resolve)) as object;
    const extra = {
      model: record.request.model ?? null,
      group: record.compare?.group ?? null,
      operation: inputs?.operation ?? null,
      parent: inputs?.parent ?? null,
      factor: inputs?.factor ?? null,
      route,
      publicLinks: target?.inputs.publicLinks ?? false,
      inputs: inputsJson(inputs, route),
    };
    return jsonSafe(JSON.stringify({ ...line, ...extra }));
  };
}

export const edit = declareCommand({
  options: IMAGE_COMMAND_OPTIONS.edit,
  help: commandHelp(
    `edit <image-ref|file> --prompt "PROMPT" [--provider ID] [--base-url URL] [--model M]
                                  [--mask MASK.png] [--ref IMAGE]... [--inputs inline|upload|never]
                                  [--allow-public-upload]
                                  edit an image with an instruction: a library image (an
                                  image-ref: ID or ID#N, kept as the result's parent) or a PNG,
                                  JPEG or WebP file (kept in the library's input store). --mask:
                                  a PNG at the image's exact size (an alpha channel: alpha 0 =
                                  edit; none: white = edit), which makes it a fill; --ref: a
                                  reference image, up to the model's limit. The model is the
                                  first of the provider's that can do it unless --model says.
                                  --inputs: inline in the request only, upload, or never upload
                                  (default: inline when it fits, else the service's upload). A
                                  service whose uploads are public links is used only after
                                  --allow-public-upload (remembered for that service). Prints
                                  the saved images; --json adds each task's id, parent,
                                  operation and the way its inputs went. Nothing is sent when
                                  an input is refused (exit 2)`,
    RUN_OPTIONS,
  ),
  parse: (args, env) => parseImageCommand('edit', args, env),
  run: runImageCommand,
});

export const upscale = declareCommand({
  options: IMAGE_COMMAND_OPTIONS.upscale,
  help: commandHelp(
    `upscale <image-ref|file> --factor 2|4 [--provider ID] [--base-url URL] [--model M]
                                  [--prompt TEXT] [--inputs inline|upload|never]
                                  [--allow-public-upload]
                                  a larger copy of an image; the model is the provider's first
                                  that upscales by that factor unless --model says`,
    RUN_OPTIONS,
  ),
  parse: (args, env) => parseImageCommand('upscale', args, env),
  run: runImageCommand,
});
