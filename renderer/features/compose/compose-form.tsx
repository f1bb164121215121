/**
 * The compose form: board, service, prompt, model, size, quality, count, and the model's own
 * options (model-options.tsx). Enter submits, Shift+Enter
 * makes a new line (as in chat prompt boxes); the prompt has the focus when the app starts.
 * Submitting never disables the form, so the next prompt can be written while earlier ones are
 * sent.
 */
import { useEffect, useId, useMemo, useRef, type RefObject } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { ErrorMessage } from '../../components/error-message';
import { t } from '../../i18n';
import { useAppStore } from '../../store/app-store';
import { composeErrors } from '../../store/compose-model';
import type { ComposeDraft, ComposeErrors, ComposeField } from '../../store/compose-slice';
import { isMacPlatform } from '../../lib/platform';
import { useFocusRequest } from '../../store/use-focus-request';
import { ChoiceField } from '../../components/choice-field';
import { CountField, ModelField, PromptField } from './compose-fields';
import { qualityOptions, sizeOptions } from '../../lib/request-options';
import { CapRefusal } from './cap-refusal';
import { CostEstimate } from './cost-estimate';
import { MissingKeyNotice } from './missing-key-notice';
import { ComposeModelOptions } from './model-options';
import { SubmitButton } from './submit-button';
import { Button } from '../../components/button';
import { ServiceField } from './service-field';
import { BoardField } from './board-field';
import { PromptHistoryPicker } from './prompt-history-picker';
import { TemplateField } from './template-field';
import { TemplateManagerGate } from './template-manager-gate';
import { TemplatePanel } from './template-panel';
import './compose.css';

/**
 * Up in an empty prompt brings back the last prompt sent, Up again the one before, Down the
 * newer ones and then the empty prompt again, as a shell's history does. A recalled prompt the
 * user edits is theirs: the arrows move the caret in it again.
 */
function usePromptRecall(
  prompt: string,
  recent: readonly string[],
  show: (prompt: string) => void,
): (step: 1 | -1) => boolean {
  const shown = useRef(-1);
  return (step) => {
    const showing = shown.current >= 0 && recent[shown.current] === prompt;
    if (!showing && prompt !== '') return false;
    const next = (showing ? shown.current : -1) + step;
    if (next < -1 || next >= recent.length) return showing;
    shown.current = next;
    show(next === -1 ? '' : (recent[next] ?? ''));
    return true;
  };
}

/** The submit and new-line shortcuts, as the platform writes them. */
function shortcutLabels(mac: boolean): { submit: string; newLine: string } {
  return mac
    ? { submit: t('compose.shortcut.mac'), newLine: t('compose.newLine.mac') }
    : { submit: t('compose.shortcut.other'), newLine: t('compose.newLine.other') };
}

function useComposeState() {
  return useAppStore(
    useShallow((state) => ({
      draft: state.composeDraft,
      recent: state.composeRecent,
      attempted: state.composeAttempted,
      pending: state.composePending,
      submitError: state.composeSubmitError,
      setDraft: state.composeSetDraft,
      submit: state.composeSubmit,
      dismissError: state.composeDismissError,
      mac: isMacPlatform(state.appInfo?.platform),
    })),
  );
}

type Refs = {
  readonly prompt: RefObject<HTMLTextAreaElement | null>;
} & { readonly [field in Exclude<ComposeField, 'prompt'>]: RefObject<HTMLInputElement | null> };

/** The draft being written, and what its fields show. */
interface DraftState {
  readonly draft: ComposeDraft;
  readonly setDraft: (patch: Partial<ComposeDraft>) => void;
  readonly errors: ComposeErrors;
  /** A submit was tried: every field shows why it is refused. */
  readonly attempted: boolean;
}

interface ComposeParamsProps {
  readonly form: DraftState;
  readonly refs: Refs;
  /** The submit shortcut, as the button's title. */
  readonly submitTitle: string;
  /** The id of the caps' forecast, which describes the submit button while a cap speaks. */
  readonly forecastId: string;
}

/** The words of the size and quality choices, and the service's usual values for each. */
const CHOICES = {
  size: {
    options: sizeOptions,
    label: 'compose.size.label',
    customLabel: 'compose.size.customLabel',
    placeholder: 'compose.size.placeholder',
  },
  quality: {
    options: qualityOptions,
    label: 'compose.quality.label',
    customLabel: 'compose.quality.customLabel',
    placeholder: 'compose.quality.placeholder',
  },
} as const;

/** Size or quality: one of the usual values, or the user's own, which the draft's checks judge. */
function DraftChoice(props: {
  readonly field: keyof typeof CHOICES;
  readonly form: DraftState;
  readonly inputRef: RefObject<HTMLInputElement | null>;
}) {
  const { field, form } = props;
  const words = CHOICES[field];
  const custom = field === 'size' ? form.draft.sizeCustom : form.draft.qualityCustom;
  return (
    <ChoiceField
      className={`compose__${field}`}
      label={t(words.label)}
      options={words.options()}
      value={form.draft[field]}
      custom={custom}
      onChange={(value, own) =>
        form.setDraft(
          field === 'size'
            ? { size: value, sizeCustom: own }
            : { quality: value, qualityCustom: own },
        )
      }
      customLabel={t(words.customLabel)}
      customPlaceholder={t(words.placeholder)}
      error={form.errors[field]}
      forceError={form.attempted}
      customRef={props.inputRef}
    />
  );
}

/**
 * Model, size, quality, count and the submit button under the prompt. The board and the service
 * sit on the prompt's label line instead: chosen seldom, they are no stops on the Tab path from
 * the prompt to the button and the task list (Shift+Tab from the prompt reaches the service, then
 * the board).
 */
function ComposeParams({ form, refs, submitTitle, forecastId }: ComposeParamsProps) {
  const { draft, setDraft, errors } = form;
  return (
    <div className="compose__params">
      <ModelField
        value={draft.model}
        onChange={(model) => setDraft({ model })}
        error={errors.model}
        inputRef={refs.model}
      />
      <DraftChoice field="size" form={form} inputRef={refs.size} />
      <DraftChoice field="quality" form={form} inputRef={refs.quality} />
      <CountField
        value={draft.count}
        onChange={(value) => setDraft({ count: value })}
        error={errors.count}
        inputRef={refs.count}
      />
      <SubmitButton title={submitTitle} forecastId={forecastId} />
      <ComposeModelOptions />
    </div>
  );
}

/**
 * The prompt's label line: the template, and where the form's tasks go (their board, their
 * service), before the prompt in the Tab order.
 */
function PromptHead() {
  return (
    <>
      <TemplateField />
      {/* On the label line, not beside Generate: there it wrapped the parameters onto a second
          row at 800 px, and the history kept two tasks in view instead of three. */}
      <Button
        variant="ghost"
        size="small"
        onClick={() => useAppStore.getState().compareShowDialog(true)}
      >
        {t('compare.button')}
      </Button>
      <Button
        variant="ghost"
        size="small"
        icon="copy"
        onClick={() => void useAppStore.getState().composeCopyCommand()}
      >
        {t('compose.command.copy')}
      </Button>
      <BoardField />
      <ServiceField />
    </>
  );
}

/** Under the fields: what the submit would cost, and why the last one was refused. */
function ComposeNotes({
  error,
  onDismiss,
  forecastId,
}: {
  error: ReturnType<typeof useComposeState>['submitError'];
  onDismiss: () => void;
  forecastId: string;
}) {
  return (
    <>
      <CostEstimate forecastId={forecastId} />
      {error?.capRefusal ? (
        <CapRefusal refusal={error.capRefusal} detail={error.detail} onDismiss={onDismiss} />
      ) : error ? (
        <ErrorMessage message={error.message} detail={error.detail} onDismiss={onDismiss} />
      ) : null}
    </>
  );
}

/**
 * The form, and beside it (outside: Enter in their fields never submits the form) the picker and
 * "Manage templates…".
 */
export function ComposeForm({ active = true }: { active?: boolean }) {
  return (
    <>
      <ComposeFields active={active} />
      <PromptHistoryPicker />
      <TemplateManagerGate />
    </>
  );
}

function ComposeFields({ active }: { active: boolean }) {
  const { draft, recent, attempted, pending, submitError, setDraft, submit, dismissError, mac } =
    useComposeState();
  const onRecall = usePromptRecall(draft.prompt, recent, (prompt) => setDraft({ prompt }));
  const forecastId = useId();
  const errors = useMemo(() => composeErrors(draft), [draft]);
  const refs = {
    prompt: useRef<HTMLTextAreaElement>(null),
    model: useRef<HTMLInputElement>(null),
    size: useRef<HTMLInputElement>(null),
    quality: useRef<HTMLInputElement>(null),
    count: useRef<HTMLInputElement>(null),
  } satisfies Record<ComposeField, unknown>;
  const missingKey = useRef<HTMLAnchorElement>(null);
  useFocusRequest('prompt', refs.prompt, active);
  // First run: the prompt is where the user starts, so the app opens with the focus in it.
  useEffect(() => {
    if (active) refs.prompt.current?.focus();
    // Once, when the form first shows: later visits keep the focus where the user left it.
  }, []);

  const send = async (): Promise<void> => {
    const outcome = await submit();
    // A refused draft: go to the first field that says why; no key: to the link that adds one.
    if (!outcome.ok && outcome.field) refs[outcome.field].current?.focus();
    if (!outcome.ok && outcome.missingKey) missingKey.current?.focus();
  };
  const keys = shortcutLabels(mac);
  return (
    <form
      className="compose"
      aria-label={t('compose.label')}
      noValidate
      onSubmit={(event) => {
        event.preventDefault();
        void send();
      }}
    >
      <PromptField
        value={draft.prompt}
        onChange={(prompt) => setDraft({ prompt })}
        onSubmit={() => void send()}
        error={attempted ? errors.prompt : undefined}
        keys={keys}
        pending={pending > 0}
        inputRef={refs.prompt}
        onRecall={onRecall}
        head={<PromptHead />}
      />
      <TemplatePanel forecastId={forecastId} />
      <ComposeParams
        form={{ draft, setDraft, errors, attempted }}
        refs={refs}
        submitTitle={keys.submit}
        forecastId={forecastId}
      />
      <MissingKeyNotice linkRef={missingKey} />
      <ComposeNotes error={submitError} onDismiss={dismissError} forecastId={forecastId} />
    </form>
  );
}
