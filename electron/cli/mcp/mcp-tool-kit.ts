/**
 * What every MCP tool of `pictor mcp` shares: its answer as JSON text, a refusal as a tool error
 * with the sentence the CLI says (a spending cap's, a usage error's), and the wait for tasks with
 * progress notifications. Keys are kept out of every message by the transport
 * (mcp-server.ts), whatever a tool says.
 */
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js';
import type { ProviderId } from '../../../shared/domain/providers';
import { isDemoEndpoint } from '../../../shared/domain/submit-target';
import type { TaskRecord } from '../../../shared/domain/task-record';
import { SpendingCapError, UserFacingError } from '../../core/errors';
import { carriesKey } from '../../core/secrets';
import type { PictorCore } from '../../core/pictor-core';
import { capRefusalText } from '../cap-refusal-text';
import { cliWording } from '../cli-report';
import type { CredentialsProvider } from '../../ports/credentials';
import { firstUseNotice } from '../models-schemas';

/** What a tool's handler gets from the SDK that the tools use. */
export interface ToolExtra {
  readonly signal: AbortSignal;
  readonly _meta?: { readonly progressToken?: string | number } | undefined;
  readonly sendNotification: (notification: {
    method: 'notifications/progress';
    params: { progressToken: string | number; progress: number; total: number; message: string };
  }) => Promise<void>;
}

/** A tool's answer: `value` as JSON text. */
export function answer(value: unknown): CallToolResult {
  return { content: [{ type: 'text', text: JSON.stringify(value, null, 1) }] };
}

/**
 * The most bytes one answer's message may take on stdout: the client's SDK reads a line of at
 * most 10 MB (its stdio ReadBuffer) and drops a longer one, the call then never answered. Room is
 * left for the message's envelope.
 */
const MAX_ANSWER_BYTES = 8 * 1024 * 1024;

/**
 * A list tool's page as large as fits in one answer ({@link MAX_ANSWER_BYTES}, its text written as
 * JSON once more in the message): `read(limit)`'s page of `limit` items, else of half as many,
 * until it fits (a page of one always goes: one item is far smaller). The page's own cursor goes
 * with it, so the next call lists on from the first item left out. A prompt is up to 32,000
 * characters, and a quote, a backslash or a control is written as 2 to 7 bytes: a page of 100
 * such prompts, another hand's records, took up to 22 MB.
 */
export function fittingPage(limit: number, read: (limit: number) => unknown): CallToolResult {
  for (let size = limit; ; size = Math.ceil(size / 2)) {
    const result = answer(read(size));
    if (size === 1 || fits(result)) return result;
  }
}

function fits(result: CallToolResult): boolean {
  return Buffer.byteLength(JSON.stringify(result)) <= MAX_ANSWER_BYTES;
}

/**
 * `value` as the answer, or `lighter()` when that would not fit in one ({@link MAX_ANSWER_BYTES}):
 * an answer that was dropped left the agent without the ids of tasks already sent.
 */
export function fittingAnswer(value: unknown, lighter: () => unknown): CallToolResult {
  const whole = answer(value);
  return fits(whole) ? whole : answer(lighter());
}

/** A tool's refusal: the sentence, as a tool error the agent reads. */
export function refusal(text: string): CallToolResult {
  return { content: [{ type: 'text', text: text.trim() }], isError: true };
}

/**
 * The refusal of a submit whose input carries a key the server holds, in any field (the prompt,
 * a template's values, the model's options and name, a compare's targets) and any encoding the
 * key's finder knows; null when it carries none. An agent's words go to a service, and another
 * provider's key (a compare's, PICTOR_KEY_<PROVIDER>) must never reach this one: generate and
 * compare both ask here before anything is planned or sent.
 */
export function keyRefusal(input: unknown, keys: readonly string[]): CallToolResult | null {
  if (keys.length === 0 || !carriesKey(JSON.stringify(input), keys)) return null;
  return refusal(
    'The request holds the value of an API key this server holds, so nothing was sent: a key never goes into a prompt, an option or a model’s name.',
  );
}

/** `result` with `notes` said first when it is a refusal (why a model's options are the shipped ones). */
export function noted(notes: readonly string[], result: CallToolResult): CallToolResult {
  const first = result.content[0];
  if (!result.isError || notes.length === 0 || first?.type !== 'text') return result;
  return refusal([...notes, first.text].join(' '));
}

/** Runs a tool's body; what it throws becomes a tool error with the CLI's sentence. */
export async function guarded(body: () => Promise<CallToolResult> | CallToolResult) {
  try {
    return await body();
  } catch (error) {
    if (error instanceof SpendingCapError) {
      return refusal(capRefusalText(error.refusal, cliWording(error.message), 'pictor'));
    }
    if (error instanceof UserFacingError) return refusal(cliWording(error.message));
    return refusal('Pictor could not do that: an unexpected error occurred. Nothing was changed.');
  }
}

/**
 * A model's first use, before a tool's `params` are typed: its published options fetched and kept
 * by the core's book with the key the server holds for that very address (firstUseNotice, as
 * `pictor generate` and `compare` do it); the notice when they could not be, for the answer. The
 * built-in demo is never asked.
 */
export async function optionsFirstUse(
  core: PictorCore,
  keys: CredentialsProvider,
  where: { readonly provider: ProviderId; readonly baseUrl: string; readonly model: string },
): Promise<string[]> {
  if (isDemoEndpoint(where.baseUrl)) return [];
  const notice = await firstUseNotice(core.paramSchemas, { ...where, keys });
  return notice === null ? [] : [notice];
}

/** The longest a tool waits for its tasks (seconds); the ids are kept past it. */
export const MAX_WAIT_SECONDS = 600;

/** How long generate waits for the service to answer its submits with task ids. */
const ID_WAIT_SECONDS = 30;

/**
 * Waits until the service answered every submit (its task id, or the task ended), so generate
 * returns the ids the service gave; the tasks go on in the engine after.
 */
export async function waitForIds(
  core: PictorCore,
  ids: readonly string[],
  extra: ToolExtra,
): Promise<TaskRecord[]> {
  const current = () =>
    ids.flatMap((id) => {
      const record = core.engine.get(id) ?? core.history.get(id);
      return record === undefined ? [] : [record];
    });
  const answered = () => current().every((r) => r.taskId !== null || r.status !== 'submitting');
  // A call cancelled before the wait: its signal will not say so again.
  if (answered() || extra.signal.aborted) return current();
  let timer: NodeJS.Timeout | undefined;
  let listening: { dispose(): void } | undefined;
  await new Promise<void>((resolve) => {
    timer = setTimeout(resolve, ID_WAIT_SECONDS * 1_000);
    extra.signal.addEventListener('abort', () => resolve(), { once: true });
    listening = core.engine.onDidUpdate(() => {
      if (answered()) resolve();
    });
  });
  clearTimeout(timer);
  listening?.dispose();
  return current();
}

/**
 * Waits until the tasks settle, `seconds` pass, or the agent cancels the call; sends a progress
 * notification at each change when the call asked for progress. The tasks run on either way.
 */
export async function waitForTasks(
  core: PictorCore,
  ids: readonly string[],
  seconds: number,
  extra: ToolExtra,
): Promise<TaskRecord[]> {
  const token = extra._meta?.progressToken;
  const total = ids.length;
  const watched = new Set(ids);
  const shown = core.engine.onDidUpdate(({ record }) => {
    if (token === undefined || !watched.has(record.localId)) return;
    const settled = ids.filter((id) => {
      const now = core.engine.get(id);
      return now !== undefined && now.status !== 'submitting' && now.status !== 'processing';
    }).length;
    const message = `Task ${record.taskId ?? record.localId}: ${record.status}`;
    void extra
      .sendNotification({
        method: 'notifications/progress',
        params: { progressToken: token, progress: settled, total, message },
      })
      .catch(() => undefined);
  });
  let timer: NodeJS.Timeout | undefined;
  const stop = new Promise<void>((resolve) => {
    timer = setTimeout(resolve, seconds * 1_000);
    if (extra.signal.aborted) resolve();
    extra.signal.addEventListener('abort', () => resolve(), { once: true });
  });
  try {
    await Promise.race([core.engine.whenSettled(ids), stop]);
  } finally {
    clearTimeout(timer);
    shown.dispose();
  }
  return ids.flatMap((id) => {
    const record = core.engine.get(id) ?? core.history.get(id);
    return record === undefined ? [] : [record];
  });
}
