/**
 * The mask editor's state and what its controls and keys do: the mask (a new one per source, with
 * its own undo steps), the tool, the brush size, and the masks handed on after each change. Only
 * the latest change's masks reach `onChange`: an older encoding that ends later is dropped. The
 * mask, tool and size are the store's (edit-draft.ts's MaskWork), so a new language keeps them.
 */
import { useMemo, useRef, useState, type KeyboardEvent } from 'react';
import { formatDimensions, t } from '../../../i18n';
import { useAppStore } from '../../../store/app-store';
import { firstMaskWork, maskWorkKey, type MaskWork } from '../../../store/edit-draft';
import { importMask, type MaskDecoder, type MaskRefusal } from './mask-import';
import { maskPngs, type MaskPngs } from './mask-png';
import type { MaskTool } from '../../../lib/mask-raster';

/** What the editor is given; see mask-editor.tsx. */
export interface MaskEditorProps {
  readonly source: { readonly url: string; readonly width: number; readonly height: number };
  /** The masks after each stroke or operation, or null when nothing is painted. */
  onChange(masks: MaskPngs | null): void;
  /** Why a mask file was not taken, as a sentence; shown in the editor when absent. */
  onRefuse?(message: string): void;
  /** Decodes an imported mask file (the page's decoders when absent; tests inject one). */
  readonly decode?: MaskDecoder;
}

/** What `[` and `]` do to the brush size: steps of one while small, a quarter beyond. */
function nextSize(size: number, larger: boolean, largest: number): number {
  let next: number;
  if (larger) next = size < 8 ? size + 1 : Math.round(size * 1.25);
  else next = size <= 8 ? size - 1 : Math.round(size / 1.25);
  return Math.min(largest, Math.max(1, next));
}

type EditorKey = 'smaller' | 'larger' | 'undo' | 'redo';

/** The editor's own meaning of a key, or null for a key it leaves alone. */
function editorKey(event: KeyboardEvent): EditorKey | null {
  const command = event.ctrlKey || event.metaKey;
  if (!command && !event.altKey && event.key === '[') return 'smaller';
  if (!command && !event.altKey && event.key === ']') return 'larger';
  if (!command || event.altKey) return null;
  const key = event.key.toLowerCase();
  if (key === 'z') return event.shiftKey ? 'redo' : 'undo';
  if (key === 'y' && event.ctrlKey && !event.shiftKey) return 'redo';
  return null;
}

function refusalText(refusal: MaskRefusal, source: { width: number; height: number }): string {
  switch (refusal.reason) {
    case 'size':
      return t('maskEditor.refused.size', {
        maskSize: formatDimensions(refusal.maskWidth, refusal.maskHeight),
        size: formatDimensions(source.width, source.height),
      });
    case 'tooLarge':
      return t('maskEditor.refused.tooLarge');
    case 'unreadable':
      return t('maskEditor.refused.unreadable');
  }
}

/**
 * The work on `source`, the store's (a new language draws the editor anew and keeps it); a new
 * source is a new mask, of its size and with its own undo steps, kept from its first change on.
 */
function useMaskWork({ url, width, height }: MaskEditorProps['source']) {
  const key = maskWorkKey(url, width, height);
  const stored = useAppStore((state) => state.editMask);
  const kept = stored?.key === key ? stored : null;
  const work = useMemo(() => kept ?? firstMaskWork(url, width, height), [kept, url, width, height]);
  const keep = (change: Partial<MaskWork> = {}) =>
    useAppStore.getState().editSetMask({ ...work, ...change });
  return { work, keep };
}

/** The editor's state and actions. */
export function useMaskEditor({ source, onChange, onRefuse, decode }: MaskEditorProps) {
  const { width, height } = source;
  const { work, keep } = useMaskWork(source);
  const { raster, tool, size } = work;
  const setTool = (next: MaskTool) => keep({ tool: next });
  const [version, setVersion] = useState(0);
  const [notice, setNotice] = useState<string | null>(null);
  const sent = useRef(0);
  // Read once per change, not once per render (a scan of every pixel).
  const empty = useMemo(() => raster.isEmpty(), [raster, version]);

  const changed = () => {
    keep();
    setVersion((count) => count + 1);
    setNotice(null);
    const ticket = ++sent.current;
    void maskPngs(raster.coverage, width, height).then((masks) => {
      if (ticket === sent.current) onChange(masks);
    });
  };
  const act = (done: boolean) => {
    if (done) changed();
  };
  const resize = (larger: boolean) =>
    keep({ size: nextSize(size, larger, Math.max(width, height)) });
  const onKeyDown = (event: KeyboardEvent) => {
    const key = editorKey(event);
    if (!key) return;
    event.preventDefault();
    // The app's own undo listens on the document: a key meant for the mask must not reach it.
    event.stopPropagation();
    if (key === 'undo') act(raster.undo());
    else if (key === 'redo') act(raster.redo());
    else resize(key === 'larger');
  };
  const importFile = async (file: Blob) => {
    const read = await importMask(file, source, decode);
    if (read.ok) return act(raster.replace(read.coverage));
    const message = refusalText(read.refusal, source);
    if (onRefuse) onRefuse(message);
    else setNotice(message);
  };
  const invert = () => {
    raster.invert();
    changed();
  };
  return {
    raster,
    empty,
    tool,
    setTool,
    size,
    resize,
    version,
    notice,
    changed,
    act,
    invert,
    onKeyDown,
    importFile,
  };
}

/** What the toolbar is given. */
export type MaskEditorState = ReturnType<typeof useMaskEditor>;
