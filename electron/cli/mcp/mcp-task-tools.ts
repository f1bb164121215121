/**
 * The MCP tools over tasks: generate (the ids at once, or after a wait with progress), task_status,
 * resume and cancel. Every submit passes the library's spending caps in the engine, as the CLI's
 * do (a refusal is a tool error with the cap's sentence), then the connection's own limit.
 */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { REQUEST_LIMITS, TASKS_PER_ENGINE_SUBMIT } from '../../../shared/domain/limits';
import { recordTarget, type SubmitTarget } from '../../../shared/domain/submit-target';
import { generationRequestSchema } from '../../../shared/service/wire';
import { UsageError } from '../../core/command-line';
import { neverSent } from '../../core/engine';
import type { PictorCore } from '../../core/pictor-core';
import type { CredentialsProvider } from '../../ports/credentials';
import { PROVIDERS } from '../../../shared/domain/providers';
import { amountOf, type ConnectionSpend, type Spent } from './mcp-spend';
import { REPEATED_SUBMIT, RequestKeys, requestKeyInput } from './mcp-request-keys';
import { taskFacts } from './mcp-facts';
import {
  MAX_WAIT_SECONDS,
  answer,
  fittingAnswer,
  guarded,
  keyRefusal,
  noted,
  optionsFirstUse,
  refusal,
  waitForIds,
  waitForTasks,
  type ToolExtra,
} from './mcp-tool-kit';
import { findTask } from '../task-ids';
import { runTemplate, templateChoice } from './mcp-template-run';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { cliWording } from '../cli-report';

/** What the task tools work with: the core, where submits go, the connection's limit. */
export interface TaskToolDeps {
  readonly core: PictorCore;
  readonly target: SubmitTarget;
  readonly spend: ConnectionSpend;
  /** The keys the server holds: a prompt that carries one is refused. */
  readonly keys: readonly string[];
  /** Whose key goes where (mcp-credentials.ts): a model's first use asks for its options with it. */
  readonly credentials: CredentialsProvider;
}

/** A task as an agent names it: Pictor's local id, the service's id, or the start of either. */
const taskIdInput = z.string().trim().min(4).max(300);
const waitInput = {
  wait: z.boolean().optional().describe('Wait for the tasks to end (progress is notified).'),
  waitSeconds: z.number().int().min(1).max(MAX_WAIT_SECONDS).optional(),
};
const DEFAULT_WAIT_SECONDS = 300;

const shape = generationRequestSchema().shape;
const generateInput = z
  .object({
    prompt: z.string().trim().max(REQUEST_LIMITS.prompt).optional(),
    model: z.string().trim().min(1).max(200).optional(),
    size: shape.size,
    quality: shape.quality,
    params: shape.params,
    seed: shape.seed,
    template: templateChoice.optional(),
    count: z.number().int().min(1).max(TASKS_PER_ENGINE_SUBMIT.max).optional(),
    requestKey: requestKeyInput,
    ...waitInput,
  })
  .strict();

function taskOf(core: PictorCore, id: string) {
  const record = findTask(core.history, id);
  if (!record) throw new UsageError('No such task in the library.');
  return record;
}

/** Said when generate's answer leaves its tasks' prompts out to fit. */
const PROMPTS_LEFT_OUT =
  'The tasks’ prompts are left out of this answer: with them it was too large to send. task_status gives each.';

/** What an agent may send to generate (every field checked by the IPC's schemas). */
type GenerateInput = z.infer<typeof generateInput>;

/** generate's deps: the task tools', and the connection's requestKeys with their tasks' ids. */
type GenerateDeps = TaskToolDeps & { readonly requests: RequestKeys<readonly string[]> };

/** The submit the input asks for, once per requestKey: the ids of the tasks it stored. */
async function submittedIds(deps: GenerateDeps, input: GenerateInput, call: AbortSignal) {
  return deps.requests.once(input, async (): Promise<Spent<readonly string[]>> => {
    const sent = await submitted(deps, input, call);
    return sent.ok ? { ok: true, value: sent.records.map((record) => record.localId) } : sent;
  });
}

/** The submit the input asks for: the engine's, or the template's run (mcp-template-run.ts). */
async function submitted(
  deps: TaskToolDeps,
  input: GenerateInput,
  call: AbortSignal,
): Promise<{ ok: true; records: TaskRecord[] } | { ok: false; reason: string }> {
  const { core, target, spend } = deps;
  const { model, size, quality, params, seed } = input;
  const request = {
    prompt: input.prompt ?? '',
    ...(model ? { model } : {}),
    ...(size ? { size } : {}),
    ...(quality ? { quality } : {}),
    ...(params ? { params } : {}),
    ...(seed === undefined ? {} : { seed }),
  };
  const count = input.count ?? 1;
  if (input.template) return runTemplate(deps, input.template, request, { count, call });
  const { perTask } = core.costs.preview(target, request, count);
  const sent = await spend.spend(
    { micros: amountOf(perTask, count), tasks: count },
    () => core.engine.submit(request, target, count),
    (records) => records,
    call,
  );
  return sent.ok ? { ok: true, records: sent.value } : sent;
}

async function generate(deps: GenerateDeps, input: GenerateInput, extra: ToolExtra) {
  const carried = keyRefusal(input, deps.keys);
  if (carried) return carried;
  if (input.template === undefined && (input.prompt ?? '') === '') {
    return refusal('generate needs a prompt, or a template of the library.');
  }
  const notes = await firstUseOf(deps, input);
  return noted(notes, await guarded(() => submitAndWait(deps, input, extra, notes)));
}

/** The submit, and the tasks once answered (or ended, with `wait`); `notes` go with the answer. */
async function submitAndWait(
  deps: GenerateDeps,
  input: GenerateInput,
  extra: ToolExtra,
  firstUse: readonly string[],
) {
  const { core, spend } = deps;
  core.engine.start({ resume: false });
  const outcome = await submittedIds(deps, input, extra.signal);
  if (!outcome.ok) return refusal(outcome.reason);
  const ids = outcome.value;
  const records = input.wait
    ? await waitForTasks(core, ids, input.waitSeconds ?? DEFAULT_WAIT_SECONDS, extra)
    : await waitForIds(core, ids, extra);
  const notes = outcome.repeated ? [...firstUse, REPEATED_SUBMIT] : firstUse;
  const said = notes.length > 0 ? { notes } : {};
  const tasks = records.map((record) => taskFacts(record, deps.keys));
  const spending = spend.summary();
  // Up to 100 tasks, each with a prompt of up to 32,000 characters (a template's, another
  // hand's): without their prompts, the ids still reach the agent.
  return fittingAnswer({ tasks, spending, ...said }, () => ({
    tasks: tasks.map(({ prompt: _left, ...facts }) => facts),
    spending,
    notes: [...notes, PROMPTS_LEFT_OUT],
  }));
}

/**
 * The model's first use when the input sets its options (`params`, or a seed outside a
 * template), as `pictor generate` does: on the server's own service, with its key.
 */
function firstUseOf(deps: TaskToolDeps, input: GenerateInput): Promise<string[]> {
  const seeded = input.seed !== undefined && input.template === undefined;
  if (input.params === undefined && !seeded) return Promise.resolve([]);
  const { provider, endpoint } = deps.target;
  const model = input.model ?? PROVIDERS[provider].defaultModel ?? '';
  return optionsFirstUse(deps.core, deps.credentials, { provider, baseUrl: endpoint, model });
}

export function registerTaskTools(server: McpServer, deps: TaskToolDeps): void {
  const { core } = deps;
  const generating = { ...deps, requests: new RequestKeys<readonly string[]>() };
  server.registerTool(
    'generate',
    {
      description:
        "Submit a prompt to the server's image service (count tasks), or a template of the library (its prompts, each count times; the prompt fills its {{prompt}}). params are the model's own options by their names (pictor models show MODEL lists them; on a model's first use its published ones are fetched first where fal or Replicate publish them, else notes say the shipped ones are used), checked before anything is sent. Returns the task ids at once; with wait, after the tasks end. Over a spending cap, or past this connection's spending or task limit, nothing is sent and the refusal's sentence is the error.",
      inputSchema: generateInput,
    },
    (input, extra) => guarded(() => generate(generating, input, extra)),
  );
  server.registerTool(
    'task_status',
    {
      description:
        'A task of the library: its status, images (by reference task-id#N), seed, cost.',
      inputSchema: z.object({ task: taskIdInput }).strict(),
    },
    ({ task }) =>
      guarded(() => {
        const record = taskOf(core, task);
        return answer(taskFacts(core.engine.get(record.localId) ?? record, deps.keys));
      }),
  );
  server.registerTool(
    'resume',
    {
      description:
        'Continue polling an unfinished task of the library (never resubmits it); with wait, until it ends.',
      inputSchema: z.object({ task: taskIdInput, ...waitInput }).strict(),
    },
    ({ task, wait, waitSeconds }, extra) =>
      guarded(async () => {
        core.engine.start({ resume: false });
        const outcome = await resumeCounted(deps, taskOf(core, task), extra.signal);
        if (!outcome.ok) return refusal(outcome.reason);
        const record = outcome.value;
        const records = wait
          ? await waitForTasks(core, [record.localId], waitSeconds ?? DEFAULT_WAIT_SECONDS, extra)
          : [record];
        return answer({ tasks: records.map((one) => taskFacts(one, deps.keys)) });
      }),
  );
  registerCancel(server, core, deps.keys);
}

/**
 * Resumes `found`. A task stored but never sent by another process (or by a connection gone) is
 * sent now, its first submit: a paid request leaving through this connection, so its estimate is
 * counted against the connection's limit as generate's are; one this connection's submit stored
 * was counted then, and any other resume sends nothing.
 */
async function resumeCounted(deps: TaskToolDeps, found: TaskRecord, call: AbortSignal) {
  const { core, spend } = deps;
  const stored = core.history.get(found.localId) ?? found;
  if (!neverSent(stored) || spend.paidFor(stored.localId)) {
    return { ok: true as const, value: core.engine.resumeTask(stored.localId) };
  }
  const { perTask } = core.costs.preview(recordTarget(stored), stored.request, 1);
  return spend.spend(
    { micros: amountOf(perTask, 1), tasks: 1 },
    () => Promise.resolve(core.engine.resumeTask(stored.localId)),
    (record) => [record],
    call,
  );
}

/** `cancel`: asks the task's service to cancel it (core/batch's cancel, as the CLI's). */
function registerCancel(server: McpServer, core: PictorCore, keys: readonly string[]): void {
  server.registerTool(
    'cancel',
    {
      description: "Ask the task's service to cancel it; says how it went.",
      inputSchema: z.object({ task: taskIdInput }).strict(),
    },
    ({ task }) =>
      guarded(async () => {
        const record = taskOf(core, task);
        core.engine.start({ resume: false });
        const [outcome] = await core.cancels.cancel([record.localId]);
        const now = core.engine.get(record.localId) ?? record;
        const reason = outcome?.reason ? cliWording(outcome.reason.message) : null;
        const facts = taskFacts(now, keys);
        return answer({ cancel: outcome?.kind ?? 'not_running', reason, task: facts });
      }),
  );
}
