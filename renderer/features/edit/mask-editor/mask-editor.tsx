/**
 * The mask editor: paint over a source image where it is to be changed, and hand both mask PNGs
 * (white-on-black and alpha, mask-png.ts) at the source's exact size to whoever edits it, after
 * every stroke or operation (never per pointer move), or null when nothing is painted.
 *
 * Its keys stay inside it: `[` and `]` change the brush size, Ctrl/Cmd+Z undoes a mask step and
 * Ctrl/Cmd+Shift+Z or Ctrl+Y redoes one; each is stopped here, so the app's own undo (a deleted
 * task, a triage) never sees a key meant for the mask.
 */
import { t } from '../../../i18n';
import { MaskCanvas } from './mask-canvas';
import { MaskTools } from './mask-tools';
import { useMaskEditor, type MaskEditorProps } from './use-mask-editor';
import './mask-editor.css';

/** Paints a mask over `props.source`; see the file's comment. */
export function MaskEditor(props: MaskEditorProps) {
  const editor = useMaskEditor(props);
  const { raster } = editor;
  return (
    <section
      className="mask-editor"
      aria-label={t('maskEditor.label')}
      // Its Ctrl/Cmd+Z takes back a stroke, not the window's last step (shell/undo-key.ts).
      data-own-undo=""
      onKeyDown={editor.onKeyDown}
    >
      <MaskTools editor={editor} />
      <MaskCanvas
        source={props.source}
        raster={raster}
        tool={editor.tool}
        size={editor.size}
        version={editor.version}
        onStroke={editor.changed}
      />
      <p className="mask-editor__hint">{t('maskEditor.keys')}</p>
      <p className="mask-editor__status" role="status">
        {editor.empty ? t('maskEditor.empty') : t('maskEditor.painted')}
      </p>
      {editor.notice ? (
        <p className="mask-editor__notice" role="alert">
          {editor.notice}
        </p>
      ) : null}
    </section>
  );
}
