/**
 * The mask editor's toolbar: brush and eraser (pressed buttons), the brush size with `[` and `]`
 * buttons, undo and redo, invert, clear, and the import of a mask file (its file input is reached
 * through the button). Every control is a labelled button in the tab order.
 */
import { useRef } from 'react';
import { Button } from '../../../components/button';
import { t } from '../../../i18n';
import type { MaskEditorState } from './use-mask-editor';

/** The toolbar of one editor. */
export function MaskTools({ editor }: { readonly editor: MaskEditorState }) {
  const { raster, tool, setTool, size, resize, act } = editor;
  const file = useRef<HTMLInputElement>(null);
  return (
    <div className="mask-editor__tools" role="toolbar" aria-label={t('maskEditor.tools')}>
      <Button size="small" aria-pressed={tool === 'brush'} onClick={() => setTool('brush')}>
        {t('maskEditor.brush')}
      </Button>
      <Button size="small" aria-pressed={tool === 'eraser'} onClick={() => setTool('eraser')}>
        {t('maskEditor.eraser')}
      </Button>
      <Button size="small" aria-label={t('maskEditor.smaller')} onClick={() => resize(false)}>
        [
      </Button>
      <output className="mask-editor__size" aria-live="polite">
        {t('maskEditor.size', { size })}
      </output>
      <Button size="small" aria-label={t('maskEditor.larger')} onClick={() => resize(true)}>
        ]
      </Button>
      <Button size="small" onClick={() => act(raster.undo())} disabled={!raster.canUndo}>
        {t('maskEditor.undo')}
      </Button>
      <Button size="small" onClick={() => act(raster.redo())} disabled={!raster.canRedo}>
        {t('maskEditor.redo')}
      </Button>
      <Button size="small" onClick={editor.invert}>
        {t('maskEditor.invert')}
      </Button>
      <Button size="small" onClick={() => act(raster.clear())} disabled={editor.empty}>
        {t('maskEditor.clear')}
      </Button>
      <Button size="small" onClick={() => file.current?.click()}>
        {t('maskEditor.import')}
      </Button>
      <input
        ref={file}
        className="mask-editor__file"
        type="file"
        accept="image/png,image/jpeg,image/webp"
        tabIndex={-1}
        aria-label={t('maskEditor.import')}
        onChange={(event) => {
          const chosen = event.currentTarget.files?.[0];
          event.currentTarget.value = '';
          if (chosen) void editor.importFile(chosen);
        }}
      />
    </div>
  );
}
