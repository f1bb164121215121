/**
 * Images as inputs in the window: the edit panel opened on a library image or a file main opened
 * (`inputs:` channels), its plan and run on 1 to 6 targets (`edit:` channels), the consent to
 * public links asked once per service, and a library image's stack (`images:stack`). The page
 * names inputs by digest only: main opens files, stores inputs and sends them.
 */
import type { StateCreator } from 'zustand';
import type {
  ImageOperation,
  ImageParent,
  InputImage,
  UpscaleFactor,
} from '../../shared/domain/image-inputs';
import type { ProviderId } from '../../shared/domain/providers';
import type {
  EditInputPayload,
  EditPlanOutput,
  ImageStack,
  StackEntry,
} from '../../shared/ipc/inputs-contract';
import { call, imageUrl, toApiError } from '../lib/api';
import type { AppState } from './app-state';
import { firstEditDraft, type EditDraft, type MaskWork } from './edit-draft';
import type { ImageRef } from './gallery-delete';

/** What the panel starts on: the operation (and the upscale factor) the user chose. */
export interface EditStart {
  readonly operation: ImageOperation;
  readonly factor?: UpscaleFactor;
}

/** The image the panel edits: its digest and size, where it came from, and the prompt to start with. */
export interface EditSource {
  readonly image: InputImage;
  readonly parent?: ImageParent;
  readonly prompt: string;
}

/** An answer that may be main's refusal, as its sentence. */
export type Answer<T> =
  { readonly ok: true; readonly value: T } | { readonly ok: false; readonly message: string };

/** One image of a stack with where the page shows it (null: not saved). */
export interface StackImage {
  readonly localId: string | null;
  readonly index: number;
  readonly url: string | null;
  readonly entry: StackEntry | null;
}

export interface EditSlice {
  /** The open panel's source and start; null: closed. */
  editPanel: {
    readonly source: EditSource;
    readonly start: EditStart;
    /** Counts the panel's openings (a new source is a new panel; a smaller copy is not). */
    readonly opened: number;
  } | null;
  /** The open panel's draft (edit-draft.ts): the store's, so a new language keeps it. */
  editDraft: EditDraft | null;
  editSetDraft(draft: EditDraft): void;
  /** The mask editor's work (edit-draft.ts's MaskWork), the store's as the draft is; null: none yet. */
  editMask: MaskWork | null;
  editSetMask(work: MaskWork): void;
  /** Services the user agreed, this session, may make their inputs public links. */
  editConsented: readonly ProviderId[];
  /**
   * Counts the batches of task changes that brought a saved edit result (a task with inputs):
   * a stack on screen is read again when it moves, so a new version joins its strip.
   */
  editResultsSeen: number;
  /** Opens the panel on a library image; a refusal is shown as the window's error. */
  editOpenFromLibrary(ref: ImageRef, prompt: string, start: EditStart): Promise<void>;
  /** Opens the panel on a file main's dialog opens (nothing when the user closes it). */
  editOpenFromFile(): Promise<void>;
  editClose(): void;
  /** The source replaced by a smaller copy (the model's maximum). */
  editDownscale(maxSide: number, maxBytes?: number): Promise<string | null>;
  /** A reference from a file main opens (null: closed) or from the library. */
  editReferenceFromFile(): Promise<Answer<InputImage | null>>;
  editReferenceFromLibrary(ref: ImageRef): Promise<Answer<InputImage>>;
  /** Where the page shows a stored input; null when main refuses. */
  editAddress(sha256: string): Promise<string | null>;
  /** A painted mask (a PNG in base64) stored beside its source. */
  editPutMask(source: string, png: string): Promise<Answer<InputImage>>;
  editPlan(input: EditInputPayload): Promise<Answer<EditPlanOutput>>;
  /** The user agreed to public links on `provider` (asked once). */
  editConsent(provider: ProviderId): Promise<string | null>;
  /** Sends the edit and opens its compare view; main's refusal comes back as its sentence. */
  editRun(input: EditInputPayload): Promise<string | null>;
  /** A library image's stack, each image with the address the page shows it at. */
  editStack(ref: ImageRef): Promise<Answer<StackImage[]>>;
}

/** A new panel on `source` (a new key, so nothing of the last one stays), with a fresh draft. */
function panelOn(get: () => AppState, source: EditSource, start: EditStart) {
  const editPanel = { source, start, opened: (get().editPanel?.opened ?? 0) + 1 };
  return { editPanel, editDraft: firstEditDraft(source, start), editMask: null };
}

const refusal = (error: unknown) => ({ ok: false as const, message: toApiError(error).message });

export const createEditSlice: StateCreator<AppState, [], [], EditSlice> = (set, get) => ({
  editPanel: null,
  editDraft: null,
  editMask: null,
  editConsented: [],
  editResultsSeen: 0,
  async editOpenFromLibrary(ref, prompt, start) {
    try {
      const { image, parent } = await call('inputs:fromLibrary', ref);
      set(panelOn(get, { image, parent, prompt }, start));
    } catch (error) {
      get().showError(error);
    }
  },
  async editOpenFromFile() {
    try {
      const picked = await call('inputs:pickFile');
      if (picked === null) return;
      const source = { image: picked.image, prompt: '' };
      set(panelOn(get, source, { operation: 'edit' }));
    } catch (error) {
      get().showError(error);
    }
  },
  editClose() {
    set({ editPanel: null, editDraft: null, editMask: null });
    // What was chosen in it is kept over a new language (form-drafts.ts), not over a close.
    get().formDraftDrop('references.pick');
  },
  editSetDraft(draft) {
    if (get().editPanel !== null) set({ editDraft: draft });
  },
  editSetMask(work) {
    set({ editMask: work });
  },
  ...downscaleAction(set, get),
  ...inputActions(),
  ...consentAction(set, get),
  async editRun(input) {
    try {
      const { group, items } = await call('edit:run', input);
      // The panel closes and gives the focus back to what opened it (the viewer's Edit… or
      // Upscale); the compare view opens over the viewer, which stays, so closing compare comes
      // back to the viewer and its Escape closes it.
      get().editClose();
      get().tasksInsert(items);
      await get().compareOpen(group);
      return null;
    } catch (error) {
      return toApiError(error).message;
    }
  },
});

/** The source replaced by a smaller copy main makes, in the panel and its draft alike. */
function downscaleAction(
  set: (partial: Partial<AppState>) => void,
  get: () => AppState,
): Pick<EditSlice, 'editDownscale'> {
  return {
    async editDownscale(maxSide, maxBytes) {
      const panel = get().editPanel;
      if (!panel) return null;
      try {
        const { image } = await call('inputs:downscale', {
          sha256: panel.source.image.sha256,
          maxSide,
          ...(maxBytes === undefined ? {} : { maxBytes }),
        });
        // A smaller copy made by main replaces the source the panel shows and sends.
        const draft = get().editDraft;
        if (get().editPanel === panel)
          set({
            editPanel: { ...panel, source: { ...panel.source, image } },
            ...(draft ? { editDraft: { ...draft, source: image } } : {}),
          });
        return null;
      } catch (error) {
        return toApiError(error).message;
      }
    },
  };
}

/** "Upload it": the user's yes to public links on a service, told to main and kept for the session. */
function consentAction(
  set: (partial: Partial<AppState>) => void,
  get: () => AppState,
): Pick<EditSlice, 'editConsent'> {
  return {
    async editConsent(provider) {
      try {
        await call('inputs:consent', { provider });
        set({ editConsented: [...new Set([...get().editConsented, provider])] });
        return null;
      } catch (error) {
        return toApiError(error).message;
      }
    },
  };
}

/** References, addresses, masks, plans and stacks: main's answers as they are, a refusal as its sentence. */
function inputActions(): Pick<
  EditSlice,
  | 'editReferenceFromFile'
  | 'editReferenceFromLibrary'
  | 'editAddress'
  | 'editPutMask'
  | 'editPlan'
  | 'editStack'
> {
  return {
    async editPlan(input) {
      try {
        return { ok: true, value: await call('edit:plan', input) };
      } catch (error) {
        return refusal(error);
      }
    },
    async editStack(ref) {
      try {
        const stack = await call('images:stack', ref);
        return { ok: true, value: await stackImages(stack) };
      } catch (error) {
        return refusal(error);
      }
    },
    async editReferenceFromFile() {
      try {
        const picked = await call('inputs:pickFile');
        return { ok: true, value: picked?.image ?? null };
      } catch (error) {
        return refusal(error);
      }
    },
    async editReferenceFromLibrary(ref) {
      try {
        return { ok: true, value: (await call('inputs:fromLibrary', ref)).image };
      } catch (error) {
        return refusal(error);
      }
    },
    async editAddress(sha256) {
      try {
        return (await call('inputs:address', { sha256 })).url;
      } catch {
        return null;
      }
    },
    async editPutMask(source, png) {
      try {
        return { ok: true, value: (await call('inputs:putMask', { source, png })).mask };
      } catch (error) {
        return refusal(error);
      }
    },
  };
}

/** The saved file of a library image, as the page shows it; null when it is not saved. */
async function libraryUrl(localId: string, index: number): Promise<string | null> {
  const item = await call('tasks:get', { localId });
  const file = item?.record.images.find((image) => image.index === index)?.file;
  return file === undefined ? null : imageUrl(file);
}

/**
 * The stack's original then its entries, each with its address. Main lists the original's own
 * entry (operation null) first when the library has it: shown once, as the original.
 */
async function stackImages(stack: ImageStack): Promise<StackImage[]> {
  const { original } = stack;
  const isOriginal = (entry: StackEntry) =>
    original.kind === 'library' &&
    entry.localId === original.localId &&
    entry.index === original.index;
  const first: StackImage =
    original.kind === 'library'
      ? { ...original, url: await libraryUrl(original.localId, original.index), entry: null }
      : {
          localId: null,
          index: 0,
          url: (await call('inputs:address', { sha256: original.sha256 })).url,
          entry: null,
        };
  const rest = await Promise.all(
    stack.entries
      .filter((entry) => !isOriginal(entry))
      .map(async (entry) => ({
        localId: entry.localId,
        index: entry.index,
        url: entry.state === 'saved' ? await libraryUrl(entry.localId, entry.index) : null,
        entry,
      })),
  );
  return [first, ...rest];
}

declare module './app-state' {
  /** This slice's own part of the whole state. */
  interface AppState extends EditSlice {}
}
