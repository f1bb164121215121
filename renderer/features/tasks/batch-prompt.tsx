/**
 * A batch's prompt, said once at the head of its card: two lines there, the whole of it in a
 * tooltip, and a click (or Enter) opens it in full over the card until Escape, a click elsewhere,
 * or the button again closes it.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { t } from '../../i18n';

export function BatchPrompt({ prompt, id }: { prompt: string; id: string }) {
  const [open, setOpen] = useState(false);
  const panelId = useId();
  const box = useRef<HTMLDivElement>(null);
  useEffect(() => {
    if (!open) return undefined;
    const close = (event: Event): void => {
      if (!box.current?.contains(event.target as Node)) setOpen(false);
    };
    document.addEventListener('pointerdown', close);
    return () => document.removeEventListener('pointerdown', close);
  }, [open]);
  return (
    <div
      ref={box}
      className="batch-prompt"
      onKeyDown={(event) => {
        if (event.key === 'Escape' && open) {
          event.stopPropagation();
          setOpen(false);
        }
      }}
    >
      <button
        type="button"
        className="plain-button batch-prompt__toggle"
        aria-expanded={open}
        aria-controls={panelId}
        aria-describedby={`${id}-hint`}
        title={prompt}
        onClick={() => setOpen((shown) => !shown)}
      >
        <span className="task-row__prompt batch-prompt__text" id={id}>
          {prompt}
        </span>
      </button>
      <span id={`${id}-hint`} className="visually-hidden">
        {t('tasks.batch.promptHint')}
      </span>
      {open ? (
        <div id={panelId} className="batch-prompt__full" role="note">
          {prompt}
        </div>
      ) : null}
    </div>
  );
}
