/**
 * The MCP tools over the library: list and search its images with the gallery's filters (the
 * IPC's schema), get one image by reference (its thumbnail or file as image content, with its
 * prompt, seed and credentials verdict), and rate, flag, tag or add to a board: the same core
 * actions as the window's keys and the CLI's commands. No path or address is taken from an agent.
 */
import { z } from 'zod';
import type { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { MAX_RATING } from '../../../shared/domain/triage';
import { VISIBLE_STATES } from '../../../shared/domain/task-record';
import { galleryServiceOf } from '../../../shared/domain/service-id';
import { galleryFilter } from '../../../shared/ipc/selection-schemas';
import { UsageError } from '../../core/command-line';
import { readOpenedFile, UnsafeFileError, withRegularFile } from '../../core/fs';
import { outgoingBytes, savedFile } from '../../core/gallery';
import type { PictorCore } from '../../core/pictor-core';
import type { TriageChange } from '../../core/triage';
import { IMAGE_REF, imageFacts, imageRefOf } from './mcp-facts';
import { answer, fittingPage, guarded } from './mcp-tool-kit';
import { resolveRefs } from '../triage-apply';
import { limiter } from '../../core/base';
import type { OutputRoom } from './mcp-output-room';

/** An image as an agent names it: `task-id#N` (N from 1), or a task's id for all its images. */
const ref = z.string().trim().max(310).regex(IMAGE_REF, 'An image is named task-id#N.');
const refs = z.array(ref).min(1).max(100);
const name = z.string().trim().min(1).max(1_000);

/** The most bytes of an image file one answer carries (the client's read buffer is 10 MB). */
const MAX_IMAGE_BYTES = 6 * 1024 * 1024;

function mimeOf(bytes: Buffer): string {
  if (bytes.subarray(0, 4).toString('hex') === '89504e47') return 'image/png';
  if (bytes.subarray(0, 3).toString('hex') === 'ffd8ff') return 'image/jpeg';
  if (bytes.subarray(8, 12).toString('latin1') === 'WEBP') return 'image/webp';
  throw new UsageError('The image file is not a PNG, JPEG or WebP image.');
}

function listImages(core: PictorCore, keys: readonly string[], input: z.infer<typeof listInput>) {
  const { smart, cursor, limit, states, ...filters } = input;
  const query = {
    ...filters,
    ...(smart === undefined ? {} : { smart: core.smartBoards.rulesOf(smart) }),
    states: states ?? VISIBLE_STATES,
    cursor: cursor ?? null,
  };
  return fittingPage(limit ?? 20, (fits) => {
    const page = core.history.listImages({ ...query, limit: fits });
    return {
      images: page.items.map((item) => ({
        ref: imageRefOf(item, item.index, keys),
        prompt: item.prompt,
        model: item.model ?? null,
        service: galleryServiceOf(item),
        createdAt: new Date(item.createdAt).toISOString(),
        ...imageFacts(item.image),
      })),
      nextCursor: page.nextCursor,
    };
  });
}

const listInput = galleryFilter().extend({
  limit: z.number().int().min(1).max(100).optional(),
  cursor: z.string().max(2_000).optional(),
});

/**
 * The bytes of a gallery file as every reader of the gallery takes them (core/fs/regular-file.ts):
 * a regular file opened inside the gallery, never through a link (to a file outside the library),
 * never a FIFO (a read that waits forever) or a device (one that never ends).
 */
async function readImageFile(gallery: PictorCore['gallery'], file: string): Promise<Buffer> {
  try {
    return await withRegularFile(gallery.root, file, Number.MAX_SAFE_INTEGER, (handle, size) => {
      if (size > MAX_IMAGE_BYTES) {
        throw new UsageError('The image file is too large to send; ask for its thumbnail.');
      }
      return readOpenedFile(handle, size);
    });
  } catch (error) {
    if (error instanceof UsageError) throw error;
    const why = error instanceof UnsafeFileError ? ` ${error.reason}` : '';
    throw new UsageError(`The image file cannot be read.${why}`);
  }
}

async function getImage(
  { core, keys }: LibraryToolDeps,
  text: string,
  which: 'file' | 'thumbnail',
) {
  const [found] = resolveRefs(core, [text.includes('#') ? text : `${text}#1`]);
  const record = found === undefined ? undefined : core.engine.get(found.localId);
  const image = record?.images[found?.index ?? 0];
  if (!record || !found || !image) throw new UsageError('No such image in the library.');
  const read = await readImageFile(core.gallery, savedFile(core.gallery, image, which));
  // An image carrying a key held in its metadata (a task kept under a key-carrying id, an image
  // saved before downloads were searched) leaves as Save as hands it, without that metadata
  // (outgoing-file.ts): not broken by the answer's scrub, and no key in a compressed chunk the
  // answer's text scrub cannot read.
  const scrub = await core.outgoingScrubber();
  const bytes = scrub ? outgoingBytes(read, scrub) : read;
  const facts = {
    ref: imageRefOf(record, found.index, keys),
    prompt: record.request.prompt,
    model: record.request.model ?? null,
    seed: record.seed ?? null,
    ...imageFacts(image),
  };
  return {
    content: [
      { type: 'image' as const, data: bytes.toString('base64'), mimeType: mimeOf(bytes) },
      { type: 'text' as const, text: JSON.stringify(facts, null, 1) },
    ],
  };
}

async function applied(core: PictorCore, names: readonly string[], change: TriageChange) {
  const outcome = await core.triage.apply(resolveRefs(core, names), change);
  // The agent's next read sees the tasks as written: their announcement ends first.
  await outcome.announced;
  return answer({
    changed: outcome.changed,
    unchanged: outcome.unchanged,
    refused: outcome.refused,
  });
}

/**
 * Adds the images to the board at `raw`, made first when the library has none there (found by
 * its folded key, as the window and "Generate into" find it: Boards.ensure).
 */
function addToBoard(core: PictorCore, names: readonly string[], raw: string) {
  const path = core.boards.ensure(raw);
  return applied(core, names, { kind: 'board', path, add: true });
}

/** get_image's reads at once: each holds its file, its base64 and its answer's JSON (~25 MB). */
const IMAGES_AT_ONCE = 2;

/**
 * Refuses a call the client cancelled: a cancel frees the call's place at once (mcp-call-gate.ts)
 * and the SDK sends nothing for it, so a call that waited its turn or its room and was cancelled
 * meanwhile reads nothing (its file, its base64 and its answer would be made for no one). Its
 * turn and its wait for room end at the cancel, not when stdout drains: a later call is read
 * meanwhile, and a client that cancels as it sends leaves no line of them behind.
 */
function stillAsked(call: AbortSignal): void {
  if (call.aborted) throw new UsageError('The call was cancelled: nothing was read.');
}

/**
 * get_image on `server`; `room` waits for the client to read what it was sent, so calls sent at
 * once read their files a few at a time, each once there is room for its answer. A call
 * cancelled while it waited reads nothing ({@link stillAsked}).
 */
function registerGetImage(server: McpServer, deps: LibraryToolDeps): void {
  const { room } = deps;
  const images = limiter(IMAGES_AT_ONCE);
  server.registerTool(
    'get_image',
    {
      description:
        'One image by reference (task-id#N): its thumbnail (default) or its file as image content, with its prompt, seed, rating, flag, tags, boards and Content Credentials verdict.',
      inputSchema: z.object({ ref, as: z.enum(['thumbnail', 'file']).optional() }).strict(),
    },
    (input, { signal }) =>
      guarded(() =>
        images(async () => {
          await room(signal);
          stillAsked(signal);
          return getImage(deps, input.ref, input.as ?? 'thumbnail');
        }, signal),
      ),
  );
}

/** What the library tools work with. */
interface LibraryToolDeps {
  readonly core: PictorCore;
  /** The keys the server holds: no image reference carries one (mcp-facts.ts). */
  readonly keys: readonly string[];
  /** get_image's answers wait for it (mcp-output-room.ts). */
  readonly room: OutputRoom;
}

/** The library tools on `server`. */
export function registerLibraryTools(server: McpServer, deps: LibraryToolDeps): void {
  const { core, keys } = deps;
  server.registerTool(
    'list_images',
    {
      description:
        "List and search the library's images, newest first, with the gallery's filters (search words, rating, flag, tags, board, smart board, service, model, dates in ms). Each image has a reference task-id#N.",
      inputSchema: listInput,
    },
    (input) => guarded(() => listImages(core, keys, input)),
  );
  registerGetImage(server, deps);
  server.registerTool(
    'rate',
    {
      description: `Rate images (0 to ${String(MAX_RATING)} stars; 0 clears).`,
      inputSchema: z.object({ refs, rating: z.number().int().min(0).max(MAX_RATING) }).strict(),
    },
    (input) => guarded(() => applied(core, input.refs, { kind: 'rating', rating: input.rating })),
  );
  server.registerTool(
    'flag',
    {
      description: 'Flag images as pick or reject, or clear the flag (none).',
      inputSchema: z.object({ refs, flag: z.enum(['pick', 'reject', 'none']) }).strict(),
    },
    (input) => guarded(() => applied(core, input.refs, { kind: 'flag', flag: input.flag })),
  );
  server.registerTool(
    'tag',
    {
      description: 'Add a tag to images, or remove it (remove: true).',
      inputSchema: z.object({ refs, tag: name, remove: z.boolean().optional() }).strict(),
    },
    (input) =>
      guarded(() =>
        applied(core, input.refs, { kind: 'tag', tag: input.tag, add: input.remove !== true }),
      ),
  );
  server.registerTool(
    'add_to_board',
    {
      description: 'Add images to a board (its path, such as Trips/Lisbon; made when missing).',
      inputSchema: z.object({ refs, board: name }).strict(),
    },
    (input) => guarded(() => addToBoard(core, input.refs, input.board)),
  );
}
