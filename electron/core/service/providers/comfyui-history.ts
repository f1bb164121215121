/**
 * ComfyUI's `GET /history/<prompt_id>` read into the canonical shape, at the entry under the
 * prompt id asked about and nowhere else: an answer listing other prompts (a proxy that answers
 * with the whole `/history`, or a hostile server) never gives this task another prompt's images
 * or end. No entry under it (`{}`): the prompt has not run yet (queued or running: the queue says
 * which, ComfyUI's `queue` question). An entry that is not an object with a `status` object is
 * no answer Pictor can read (a protocol error: the task shows it and is asked again later).
 * Otherwise its entry: `status.status_str` `success` or `error`; an `error` whose messages hold
 * `execution_interrupted` was stopped (canceled), one with `execution_error` failed in a node,
 * said as "<node type> (node <id>): <exception message>"; a failure without one takes the reason
 * the common fallback finds in this entry alone (`historyEntry`, failure-reason.ts). Images: every output node's `images` of
 * type `output` (a `temp` preview only when there is no saved image), as `/view` links
 * (viewLink). The seed: the one the graph that ran (the entry's `prompt`, `[number, prompt_id,
 * graph, extra, outputs]`) gave its sampler's `seed` or `noise_seed`, when every such input there
 * holds the same one.
 */
import { MAX_HISTORY_ENTRIES } from '../answer-limits';
import { objectOf, readWord, type TaskReading } from './provider-profile';
import type { ImageEntry } from './image-list';

/** ComfyUI's words, history's and the queue's (`running`: the prompt the queue runs now). */
export const COMFY_STATUS_WORDS = {
  pending: 'queued',
  running: 'running',
  success: 'succeeded',
  error: 'failed',
  interrupted: 'canceled',
} as const;

/** Most output nodes looked at (a hostile history may list millions). */
const MAX_OUTPUT_NODES = 64;

/**
 * What the history holds under `promptId` (an own key: `__proto__` is a name like another), as an
 * object (`{}` for nothing or anything else): the only part of the answer about that prompt.
 */
export function historyEntry(json: unknown, promptId: string): Record<string, unknown> {
  const history = objectOf(json);
  return Object.hasOwn(history, promptId) ? objectOf(history[promptId]) : {};
}

/**
 * The history's entry under `promptId` (historyEntry), `null` when there is one but it is not an
 * entry with a `status` object, undefined when there is none.
 */
function entryOf(json: unknown, promptId: string): Record<string, unknown> | null | undefined {
  if (!Object.hasOwn(objectOf(json), promptId)) return undefined;
  const entry = historyEntry(json, promptId);
  const status = entry['status'];
  return typeof status === 'object' && status !== null && !Array.isArray(status) ? entry : null;
}

/** The `[name, data]` messages of a status, bounded. */
function messagesOf(status: Record<string, unknown>): [string, Record<string, unknown>][] {
  const messages = status['messages'];
  if (!Array.isArray(messages)) return [];
  return messages
    .slice(0, 256)
    .flatMap((message: unknown) =>
      Array.isArray(message) && typeof message[0] === 'string'
        ? [[message[0], objectOf(message[1])] as [string, Record<string, unknown>]]
        : [],
    );
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' || typeof value === 'number' ? String(value) : undefined;
}

/** The error an `execution_error` message says, as `{ code, message }`. */
function executionError(data: Record<string, unknown>): { code?: string; message: string } {
  const type = text(data['node_type']) ?? 'A node';
  const node = text(data['node_id']);
  const exception = text(data['exception_message'])?.trim() || 'it stopped with an error';
  const code = text(data['exception_type']);
  const where = node === undefined ? type : `${type} (node ${node})`;
  return { ...(code === undefined ? {} : { code }), message: `${where}: ${exception}` };
}

/**
 * An image's `/view` link; an entry without an address when its name is missing or is no text,
 * or its folder or type is given as anything but text: read as the defaults (the output folder's
 * top), such an entry named another file than the server's.
 */
function viewLink(image: Record<string, unknown>): ImageEntry {
  const { filename, subfolder = '', type = 'output' } = image;
  if (typeof filename !== 'string' || filename === '') return {};
  if (typeof subfolder !== 'string' || typeof type !== 'string') return {};
  const query = new URLSearchParams({ filename, subfolder, type });
  return { url: `/view?${query.toString()}` };
}

/**
 * The images of an entry's outputs: saved ones, or previews when nothing was saved; all of them,
 * up to as many as one list of the answer may hold (MAX_HISTORY_ENTRIES, over every node): the
 * task keeps its first ones and its notice counts them all (a node's batch of 300 was once left
 * unread, and before that cut at 64 per node, miscounted).
 */
function imagesOf(entry: Record<string, unknown>): ImageEntry[] {
  const nodes = Object.values(objectOf(entry['outputs'])).slice(0, MAX_OUTPUT_NODES);
  const listed: Record<string, unknown>[] = [];
  for (const node of nodes) {
    const images = objectOf(node)['images'];
    if (!Array.isArray(images)) continue;
    for (const image of images.slice(0, MAX_HISTORY_ENTRIES - listed.length))
      listed.push(objectOf(image));
  }
  const saved = listed.filter((image) => image['type'] === 'output');
  return (saved.length > 0 ? saved : listed).map(viewLink);
}

/** Most nodes of the ran graph looked at for its seed. */
const MAX_SEED_NODES = 1_024;

/** The seed the graph that ran gave its samplers, when there is exactly one (see above). */
function seedOf(entry: Record<string, unknown>): unknown {
  const prompt = entry['prompt'];
  const graph = Array.isArray(prompt) ? objectOf(prompt[2]) : {};
  const seeds = new Set<unknown>();
  for (const node of Object.values(graph).slice(0, MAX_SEED_NODES)) {
    const inputs = objectOf(objectOf(node)['inputs']);
    for (const name of ['seed', 'noise_seed'])
      if (typeof inputs[name] === 'number' || typeof inputs[name] === 'string')
        seeds.add(inputs[name]);
  }
  return seeds.size === 1 ? [...seeds][0] : undefined;
}

/** Reads a history answer to `/history/<promptId>`; see the file comment. */
export function readHistory(json: unknown, promptId: string): TaskReading {
  const entry = entryOf(json, promptId);
  if (entry === undefined) return readWord(COMFY_STATUS_WORDS, 'pending');
  // No status word: the answer is refused as one of an unexpected shape.
  if (entry === null) return {};
  const status = objectOf(entry['status']);
  const messages = messagesOf(status);
  if (messages.some(([name]) => name === 'execution_interrupted'))
    return readWord(COMFY_STATUS_WORDS, 'interrupted');
  const read = readWord(COMFY_STATUS_WORDS, status['status_str']);
  if (read.status === 'succeeded') {
    const seed = seedOf(entry);
    return { ...read, output: { data: imagesOf(entry) }, ...(seed === undefined ? {} : { seed }) };
  }
  if (read.status !== 'failed') return read;
  const failed = messages.find(([name]) => name === 'execution_error');
  return failed === undefined ? read : { ...read, error: executionError(failed[1]) };
}
