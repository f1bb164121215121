/**
 * `compare`: one prompt on 2 to 6 services side by side, planned, priced and capped by the core's
 * compare (the plan the window's dialog and `pictor compare` show), then checked against the
 * connection's limit as a whole, and sent as one group. A target names a service by its id; its
 * address is the server's own service's when it is that service, else the provider's own, and its
 * key is the server's (mcp-credentials.ts): an agent never names an address or a key. On the
 * built-in demo (`--provider demo`), `demo` and `demo:fal`, … name the demo speaking a dialect.
 */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { COMPARE_TARGETS } from '../../../shared/domain/compare';
import { PROVIDERS, PROVIDER_IDS, type ProviderId } from '../../../shared/domain/providers';
import {
  demoEndpointOf,
  isDemoEndpoint,
  type SubmitTarget,
} from '../../../shared/domain/submit-target';
import { englishText } from '../../../shared/i18n/sentence';
import { generationRequestSchema } from '../../../shared/service/wire';
import { UsageError } from '../../core/command-line';
import { planCompare, runCompare, type ComparePlan } from '../../core/compare';
import type { PictorCore } from '../../core/pictor-core';
import type { CredentialsProvider } from '../../ports/credentials';
import { cliWording } from '../cli-report';
import { compareOptionsOf } from '../param-args';
import { taskFacts } from './mcp-facts';
import {
  amountOf,
  type ConnectionSpend,
  type Spent,
  type SpendAmount,
  type SpendCharge,
} from './mcp-spend';
import { REPEATED_SUBMIT, RequestKeys, requestKeyInput } from './mcp-request-keys';
import {
  answer,
  guarded,
  keyRefusal,
  noted,
  optionsFirstUse,
  refusal,
  waitForIds,
  waitForTasks,
  type ToolExtra,
} from './mcp-tool-kit';

export interface CompareToolDeps {
  readonly core: PictorCore;
  readonly target: SubmitTarget;
  readonly spend: ConnectionSpend;
  readonly credentials: CredentialsProvider;
  /** The keys the server holds (image references carry none: mcp-facts.ts). */
  readonly keys: readonly string[];
}

const DEMO_NAMES = ['demo', ...PROVIDER_IDS.map((id) => `demo:${id}`)] as const;

const compareInput = z
  .object({
    prompt: generationRequestSchema().shape.prompt,
    targets: z
      .array(
        z
          .object({
            service: z.enum([...PROVIDER_IDS, ...DEMO_NAMES]),
            model: z.string().trim().min(1).max(200).optional(),
          })
          .strict(),
      )
      .min(COMPARE_TARGETS.min)
      .max(COMPARE_TARGETS.max),
    /** The model's options, checked for the first target's model; carried to each (param-args.ts). */
    params: generationRequestSchema().shape.params,
    seed: generationRequestSchema().shape.seed,
    requestKey: requestKeyInput,
    wait: z.boolean().optional(),
    waitSeconds: z.number().int().min(1).max(600).optional(),
  })
  .strict();
type CompareToolInput = z.infer<typeof compareInput>;

/** What a compare sent, kept under its requestKey: its group, its tasks and what its plan said. */
interface CompareSent {
  readonly group: string;
  readonly ids: readonly string[];
  readonly leftOut: readonly { readonly label: string; readonly reason: string }[];
  /** The plan's notes, each under its target's label. */
  readonly notes: readonly string[];
}

/** compare's deps: the tool's, and the connection's requestKeys with what each compare sent. */
type CompareRunDeps = CompareToolDeps & { readonly requests: RequestKeys<CompareSent> };
/** A target where the server sends it: its service's kind, address and model. */
type ToolTarget = {
  readonly provider: ProviderId;
  readonly baseUrl: string;
  readonly model?: string;
};

/** Where a target's tasks go: the server's service, the provider's own address, or the demo. */
function addressOf(
  service: string,
  server: SubmitTarget,
): { provider: ProviderId; baseUrl: string } {
  const onDemo = isDemoEndpoint(server.endpoint);
  if (service === 'demo' || service.startsWith('demo:')) {
    if (!onDemo) {
      throw new UsageError(
        'A demo target works only when this server runs on the built-in demo (pictor mcp --provider demo).',
      );
    }
    const provider = (service === 'demo' ? server.provider : service.slice(5)) as ProviderId;
    return { provider, baseUrl: demoEndpointOf(provider) };
  }
  const provider = service as ProviderId;
  if (!onDemo && provider === server.provider) return { provider, baseUrl: server.endpoint };
  const own = PROVIDERS[provider].defaultBaseUrl;
  if (own === null) {
    throw new UsageError(
      `The service ${provider} has no address of its own: only the server's own service can be that kind.`,
    );
  }
  return { provider, baseUrl: own };
}

/** What the whole compare takes from the connection: every target's tasks, in US dollars. */
function chargeOfPlan(plan: ComparePlan): SpendCharge {
  let micros: SpendAmount = 0;
  let tasks = 0;
  for (const target of plan.targets) {
    for (const cost of target.perTask) {
      const amount = amountOf(cost, target.count);
      micros = amount === null || micros === null ? null : micros + amount;
      tasks += target.count;
    }
  }
  return { micros, tasks };
}

/**
 * Each target's model's first use when the input sets options, before they are typed (by the
 * first target's model) and mapped (to each target's), as `pictor compare` does: with the key the
 * server holds for that target's address only; a target with none is left out by the plan, so it
 * is not asked. The notices of what could not be fetched.
 */
async function firstUses(
  deps: CompareToolDeps,
  input: CompareToolInput,
  targets: readonly ToolTarget[],
): Promise<string[]> {
  if (input.params === undefined && input.seed === undefined) return [];
  const notes: string[] = [];
  const asked = new Set<string>();
  for (const { provider, baseUrl, model: chosen } of targets) {
    const model = chosen ?? PROVIDERS[provider].defaultModel ?? '';
    const once = JSON.stringify([provider, baseUrl, model]);
    if (asked.has(once) || (await deps.credentials.credentialsFor(baseUrl)) === null) continue;
    asked.add(once);
    notes.push(
      ...(await optionsFirstUse(deps.core, deps.credentials, { provider, baseUrl, model })),
    );
  }
  return notes;
}

async function compare(deps: CompareRunDeps, input: CompareToolInput, extra: ToolExtra) {
  const carried = keyRefusal(input, deps.keys);
  if (carried) return carried;
  const targets = input.targets.map((wanted) => ({
    ...addressOf(wanted.service, deps.target),
    ...(wanted.model ? { model: wanted.model } : {}),
  }));
  const fetched = await firstUses(deps, input, targets);
  return noted(fetched, await guarded(() => planAndRun(deps, input, extra, { targets, fetched })));
}

/** A sentence of the core's as the CLI says it. */
function said(sentence: Parameters<typeof englishText>[0]): string {
  return cliWording(englishText(sentence));
}

/** The plan (typed by the first target's model) and its run: what it sent, or why nothing. */
async function planAndSend(
  deps: CompareToolDeps,
  input: CompareToolInput,
  extra: ToolExtra,
  targets: readonly ToolTarget[],
): Promise<Spent<CompareSent>> {
  const { core, spend } = deps;
  const options = targets[0] ? compareOptionsOf(input, targets[0]) : undefined;
  const plan = await planCompare(
    { credentials: deps.credentials, costs: core.costs },
    { prompts: [input.prompt], targets: [...targets], ...(options ? { options } : {}) },
  );
  if (plan.refusal !== undefined) return { ok: false, reason: said(plan.refusal) };
  const sent = await spend.spend(
    chargeOfPlan(plan),
    () => {
      core.engine.start({ resume: false });
      return runCompare(core.engine, plan);
    },
    (records) => records,
    extra.signal,
  );
  if (!sent.ok) return sent;
  const value = {
    group: plan.group,
    ids: sent.value.map((record) => record.localId),
    leftOut: plan.leftOut.map((left) => ({ label: left.label, reason: said(left.reason) })),
    // A note names no target ("This model has no option …"): it comes under the target's label.
    notes: plan.targets.flatMap((target) =>
      target.notes.map((note) => `${target.label}: ${said(note)}`),
    ),
  };
  return { ok: true, value };
}

/** The compare sent (once per requestKey) and its answer, with `fetched`'s notes. */
async function planAndRun(
  deps: CompareRunDeps,
  input: CompareToolInput,
  extra: ToolExtra,
  { targets, fetched }: { targets: readonly ToolTarget[]; fetched: readonly string[] },
) {
  const { core, spend } = deps;
  const outcome = await deps.requests.once(input, () => planAndSend(deps, input, extra, targets));
  if (!outcome.ok) return refusal(outcome.reason);
  const { group, ids, leftOut, notes } = outcome.value;
  const records = input.wait
    ? await waitForTasks(core, ids, input.waitSeconds ?? 300, extra)
    : await waitForIds(core, ids, extra);
  return answer({
    group,
    tasks: records.map((record) => taskFacts(record, deps.keys)),
    leftOut,
    notes: [...fetched, ...notes, ...(outcome.repeated ? [REPEATED_SUBMIT] : [])],
    spending: spend.summary(),
  });
}

export function registerCompare(server: McpServer, deps: CompareToolDeps): void {
  const comparing = { ...deps, requests: new RequestKeys<CompareSent>() };
  server.registerTool(
    'compare',
    {
      description:
        "One prompt on 2 to 6 services side by side (each target: a service's id and optionally its model), planned and priced first; a target with no key here is left out with a sentence. params (the model's options by name) are typed for the first target's model and sent to each target under its own name, seed to each that takes one; notes say what a target does not take (and, on a model's first use, when its published options could not be fetched and the shipped ones are used). The server's own service uses its key; another provider uses PICTOR_KEY_<PROVIDER> from the server's environment. On the built-in demo, targets demo, demo:fal, … Returns the group id and its tasks.",
      inputSchema: compareInput,
    },
    (input, extra) => guarded(() => compare(comparing, input, extra)),
  );
}
