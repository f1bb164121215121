/**
 * The edit panel's draft: what the user has chosen so far (operation, prompt, mask, references,
 * targets, route). The store's, as the window's other state is: the window is drawn anew in a new
 * language (app.tsx keys it on the language), and a draft held by the panel itself was lost then.
 */
import type {
  Expand,
  ImageOperation,
  ImageParent,
  InputImage,
  InputRoute,
  UpscaleFactor,
} from '../../shared/domain/image-inputs';
import type { ProviderId } from '../../shared/domain/providers';
import { MaskRaster, type MaskTool } from '../lib/mask-raster';

/** A model on a service the draft is sent to. */
export interface EditTarget {
  readonly provider: ProviderId;
  readonly model: string;
}

/** What the panel holds when the user sends. */
export interface EditDraft {
  readonly operation: ImageOperation;
  readonly source: InputImage;
  readonly parent?: ImageParent | undefined;
  readonly prompt: string;
  readonly masks: { readonly white: InputImage; readonly alpha: InputImage } | null;
  readonly references: readonly InputImage[];
  readonly factor: UpscaleFactor;
  readonly expand: Expand;
  readonly route: InputRoute;
  readonly targets: readonly EditTarget[];
}

const NO_EXPAND = { top: 0, right: 0, bottom: 0, left: 0 };

/** A fresh draft on `source` (edit-slice.ts's EditSource), starting on `start` (its EditStart). */
export function firstEditDraft(
  source: { readonly image: InputImage; readonly parent?: ImageParent; readonly prompt: string },
  start: { readonly operation: ImageOperation; readonly factor?: UpscaleFactor },
): EditDraft {
  return {
    operation: start.operation,
    source: source.image,
    parent: source.parent,
    prompt: source.prompt,
    masks: null,
    references: [],
    factor: start.factor ?? 2,
    expand: NO_EXPAND,
    route: 'auto',
    targets: [],
  };
}

/**
 * The mask editor's work on one source (`key`: its address and size): the mask painted so far with
 * its undo steps (`raster`, changed in place by the strokes), the tool and the brush size. Kept
 * with the draft, so a new language (the window drawn anew) shows the same strokes, tool and size.
 */
export interface MaskWork {
  readonly key: string;
  readonly raster: MaskRaster;
  readonly tool: MaskTool;
  readonly size: number;
}

/** A new mask on a source of `width` × `height` at `url`: nothing painted, the brush a twentieth of its side. */
export function firstMaskWork(url: string, width: number, height: number): MaskWork {
  return {
    key: maskWorkKey(url, width, height),
    raster: new MaskRaster(width, height),
    tool: 'brush',
    size: Math.max(4, Math.round(Math.min(width, height) / 20)),
  };
}

/** Names the source a MaskWork belongs to: a new source (or a smaller copy) is a new mask. */
export function maskWorkKey(url: string, width: number, height: number): string {
  return `${String(width)}x${String(height)} ${url}`;
}
