/** The compose form's own fields: prompt, model (with suggestions) and count. */
import { useId, type KeyboardEvent, type ReactNode, type Ref } from 'react';
import { TextField } from '../../components/text-field';
import { Spinner } from '../../components/spinner';
import { t, type MessageKey } from '../../i18n';
import { TASKS_PER_SUBMIT } from '../../../shared/domain/limits';
import { useModelSuggestions } from './use-model-suggestions';
import { useComposeTaskCount } from './use-template-expansion';

export interface PromptFieldProps {
  value: string;
  onChange: (value: string) => void;
  /** Enter (or Ctrl/Cmd+Enter); Shift+Enter makes a new line. */
  onSubmit: () => void;
  error: MessageKey | undefined;
  /** How the keys are written on this platform. */
  keys: { readonly submit: string; readonly newLine: string };
  /** Submits are in flight. */
  pending: boolean;
  inputRef: Ref<HTMLTextAreaElement>;
  /**
   * Up (+1, older) or Down (-1, newer) in the prompt: answers whether it recalled a prompt sent
   * before (then the key does nothing else).
   */
  onRecall?: (step: 1 | -1) => boolean;
  /**
   * A control shown on the prompt's label line, before the prompt in the Tab order (the service
   * the prompt goes to): Shift+Tab from the prompt reaches it, Tab from the prompt passes it by.
   */
  head?: ReactNode;
}

export function PromptField(props: PromptFieldProps) {
  const ids = { input: useId(), error: useId(), hint: useId() };
  const onKeyDown = (event: KeyboardEvent<HTMLTextAreaElement>): void => {
    const plain = !event.shiftKey && !event.altKey && !event.ctrlKey && !event.metaKey;
    if (plain && (event.key === 'ArrowUp' || event.key === 'ArrowDown')) {
      if (props.onRecall?.(event.key === 'ArrowUp' ? 1 : -1)) event.preventDefault();
      return;
    }
    // An Enter that ends an IME composition (Japanese, Chinese…) picks the characters: no submit.
    if (event.key !== 'Enter' || event.shiftKey || event.nativeEvent.isComposing) return;
    event.preventDefault();
    props.onSubmit();
  };
  return (
    <div className="field compose__prompt">
      <div className="compose__prompt-head">
        <label className="field__label" htmlFor={ids.input}>
          {t('compose.prompt.label')}
        </label>
        {props.head}
        <span className="compose__hint muted" id={ids.hint}>
          {props.pending ? <Spinner label={t('compose.sending')} /> : null}
          <span>{t('compose.hint', props.keys)}</span>
        </span>
      </div>
      <textarea
        id={ids.input}
        ref={props.inputRef}
        className="textarea"
        rows={3}
        value={props.value}
        placeholder={t('compose.prompt.placeholder')}
        aria-keyshortcuts="Enter"
        aria-invalid={props.error ? true : undefined}
        aria-describedby={props.error ? ids.error : ids.hint}
        onChange={(event) => props.onChange(event.target.value)}
        onKeyDown={onKeyDown}
      />
      {props.error ? (
        <p className="field__error" id={ids.error} role="alert">
          {t(props.error)}
        </p>
      ) : null}
    </div>
  );
}

export interface SimpleFieldProps {
  value: string;
  onChange: (value: string) => void;
  error: MessageKey | undefined;
  inputRef: Ref<HTMLInputElement>;
}

/** Free text; models used before are offered first. Empty means the service's default. */
export function ModelField({ value, onChange, error, inputRef }: SimpleFieldProps) {
  const list = useId();
  const models = useModelSuggestions();
  return (
    <TextField
      label={t('compose.model.label')}
      className="compose__model"
      error={error ? t(error) : null}
      inputRef={inputRef}
      list={list}
      value={value}
      placeholder={t('compose.serviceDefault')}
      spellCheck={false}
      autoComplete="off"
      onChange={onChange}
      after={
        <datalist id={list}>
          {models.map((model) => (
            <option key={model} value={model} />
          ))}
        </datalist>
      }
    />
  );
}

/** How many tasks one submit creates (1–10), checked as typed. */
/**
 * The count of tasks for each prompt; with a template chosen, its note says every task Generate
 * would send (the count times the template's prompts), the figure Generate names too.
 */
export function CountField({ value, onChange, error, inputRef }: SimpleFieldProps) {
  const { perPrompt, prompts, tasks } = useComposeTaskCount();
  return (
    <TextField
      label={t('compose.count.label')}
      className="compose__count"
      hint={
        prompts !== null && tasks !== null && perPrompt !== null
          ? t('compose.count.templated', { tasks, count: perPrompt })
          : undefined
      }
      error={error ? t(error) : null}
      inputRef={inputRef}
      type="number"
      min={TASKS_PER_SUBMIT.min}
      max={TASKS_PER_SUBMIT.max}
      step={1}
      value={value}
      onChange={onChange}
    />
  );
}
