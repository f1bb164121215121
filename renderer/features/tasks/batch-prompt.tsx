/**
 * A batch's prompt, said once at the head of its card: two lines there, the whole of it in a
 * tooltip, and a click (or Enter) opens it in full over the card until Escape, a click elsewhere,
 * or the button again closes it. A template's batch says its name and number of prompts there,
 * and the click opens the list of its prompts.
 */
import { useEffect, useId, useRef, useState } from 'react';
import { t } from '../../i18n';

export interface BatchPromptProps {
  /** What the head says: the prompt, or a template batch's name. */
  readonly prompt: string;
  /** A template batch's prompts, in its order: what the click opens. */
  readonly prompts?: readonly string[];
  readonly id: string;
}

/** What the click opens: the whole prompt, or the list of a template batch's prompts. */
function FullText({ prompt, prompts }: Omit<BatchPromptProps, 'id'>) {
  if (!prompts) return prompt;
  return (
    <ol className="batch-prompt__list">
      {prompts.map((one, n) => (
        <li key={n}>{one}</li>
      ))}
    </ol>
  );
}

export function BatchPrompt({ prompt, prompts, id }: BatchPromptProps) {
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
        {t(prompts ? 'tasks.batch.promptsHint' : 'tasks.batch.promptHint')}
      </span>
      {open ? (
        <div id={panelId} className="batch-prompt__full" role="note">
          <FullText prompt={prompt} {...(prompts ? { prompts } : {})} />
        </div>
      ) : null}
    </div>
  );
}
