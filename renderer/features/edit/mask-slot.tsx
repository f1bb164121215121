/**
 * The mask of a fill: the mask editor paints it (both conventions, at the source's exact size),
 * and each PNG is stored beside the source by main (`inputs:putMask`) so the request names it by
 * digest.
 */
import { useState } from 'react';
import type { InputImage } from '../../../shared/domain/image-inputs';
import { t } from '../../i18n';
import { MaskEditor } from './mask-editor/mask-editor';
import { useAppStore } from '../../store/app-store';

const store = useAppStore.getState;

/** What the mask editor gives: `white` white-on-black grayscale, `alpha` RGBA (alpha 0 = edit). */
interface PaintedMasks {
  readonly white: Uint8Array;
  readonly alpha: Uint8Array;
}

/** Bytes as base64, in slices (a spread of a whole image overflows the call stack). */
function base64Of(bytes: Uint8Array): string {
  let text = '';
  for (let at = 0; at < bytes.length; at += 0x8000) {
    text += String.fromCharCode(...bytes.subarray(at, at + 0x8000));
  }
  return btoa(text);
}

type StoredMasks = { readonly white: InputImage; readonly alpha: InputImage };

interface MaskSlotProps {
  readonly source: InputImage;
  readonly url: string | null;
  readonly onChange: (masks: StoredMasks | null) => void;
}

export function MaskSlot({ source, url, onChange }: MaskSlotProps) {
  const [problem, setProblem] = useState<string | null>(null);
  const painted = async (masks: PaintedMasks | null) => {
    if (!masks) return onChange(null);
    const [white, alpha] = await Promise.all([
      store().editPutMask(source.sha256, base64Of(masks.white)),
      store().editPutMask(source.sha256, base64Of(masks.alpha)),
    ]);
    if (!white.ok) return setProblem(white.message);
    if (!alpha.ok) return setProblem(alpha.message);
    setProblem(null);
    onChange({ white: white.value, alpha: alpha.value });
  };
  return (
    <section className="edit-mask" aria-label={t('edit.mask')}>
      {url ? (
        <MaskEditor
          source={{ url, width: source.width, height: source.height }}
          onChange={(masks) => void painted(masks)}
          onRefuse={setProblem}
        />
      ) : null}
      {problem ? <p role="alert">{problem}</p> : null}
    </section>
  );
}
