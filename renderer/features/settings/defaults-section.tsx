/**
 * Defaults for new prompts. A preset is saved when chosen; typed values are saved when they
 * are valid and the field is left (or Enter is pressed), with the reason shown while they are not.
 */
import { useEffect, useId, useMemo, type InputHTMLAttributes } from 'react';
import type { Settings } from '../../../shared/domain/settings';
import { t } from '../../i18n';
import { TASKS_PER_SUBMIT } from '../../../shared/domain/limits';
import {
  checkCount,
  checkModel,
  checkQuality,
  checkSize,
  type Checked,
} from '../../lib/request-validation';
import { draftFromDefaults } from '../../store/compose-model';
import { useAppStore } from '../../store/app-store';
import type { DefaultsEdit } from '../../store/form-drafts';
import { ChoiceField } from '../../components/choice-field';
import { qualityOptions, sizeOptions } from '../../lib/request-options';
import { Field } from '../../components/field';
import { FieldError, fieldProblem } from './field-error';
import type { SettingSaver } from './use-setting-save';

type Draft = ReturnType<typeof draftFromDefaults>;

/** What is typed, field by field, but where the saved value changed since it was typed. */
function followed({ draft: current, over: before }: DefaultsEdit, next: Draft): Draft {
  return {
    ...current,
    provider: next.provider,
    model: next.model !== before.model ? next.model : current.model,
    size: next.size !== before.size ? next.size : current.size,
    sizeCustom: next.size !== before.size ? next.sizeCustom : current.sizeCustom,
    quality: next.quality !== before.quality ? next.quality : current.quality,
    qualityCustom: next.quality !== before.quality ? next.qualityCustom : current.qualityCustom,
    count: next.count !== before.count ? next.count : current.count,
  };
}

/**
 * Follows saved changes field by field, so a field being edited keeps what was typed. Kept in the
 * store (form-drafts.ts): a new language draws the window anew and keeps what was typed.
 */
function useDraft(settings: Settings): [Draft, (patch: Partial<Draft>) => void] {
  const next = useMemo(() => draftFromDefaults(settings), [settings]);
  const kept = useAppStore((state) => state.formDrafts.defaults);
  const setDraft = useAppStore((state) => state.formDraftSet);
  const draft = useMemo(() => (kept ? followed(kept, next) : next), [kept, next]);
  // A saved change is taken into what is kept, as it is shown.
  useEffect(() => {
    if (kept && kept.over !== next)
      setDraft('defaults', { draft: followed(kept, next), over: next });
  }, [kept, next, setDraft]);
  return [draft, (patch) => setDraft('defaults', { draft: { ...draft, ...patch }, over: next })];
}

type Defaults = Pick<Settings, 'defaultModel' | 'defaultSize' | 'defaultQuality' | 'defaultCount'>;

interface DefaultFieldProps {
  readonly draft: Draft;
  readonly patch: (patch: Partial<Draft>) => void;
  readonly settings: Settings;
  readonly saver: SettingSaver;
}

/** Saves a checked value as the default `key` when it is valid and not the saved one already. */
function commit<K extends keyof Defaults>(
  { settings, saver }: DefaultFieldProps,
  key: K,
  checked: Checked<Defaults[K]>,
): void {
  if (checked.ok && checked.value !== settings[key]) {
    void saver.save(key, { [key]: checked.value } as Pick<Defaults, K>);
  }
}

/** A typed default (model, count): checked as typed, saved when valid and left or on Enter. */
function TypedField<K extends 'defaultModel' | 'defaultCount'>(
  props: DefaultFieldProps & {
    readonly setting: K;
    readonly label: string;
    readonly checked: Checked<Defaults[K]>;
    /** The input's own attributes, its value and what typing does. */
    readonly input: InputHTMLAttributes<HTMLInputElement>;
  },
) {
  const { setting, checked } = props;
  const commitNow = (): void => commit(props, setting, checked);
  const error = fieldProblem(checked.ok ? undefined : checked.reason, props.saver.errorOf(setting));
  return (
    <Field label={props.label} error={error}>
      {(control) => (
        <input
          {...control}
          className="input"
          {...props.input}
          onBlur={commitNow}
          onKeyDown={(event) => {
            if (event.key === 'Enter') commitNow();
          }}
        />
      )}
    </Field>
  );
}

function ModelField(props: DefaultFieldProps) {
  const { draft, patch } = props;
  return (
    <TypedField
      {...props}
      setting="defaultModel"
      label={t('compose.model.label')}
      checked={checkModel(draft.model)}
      input={{
        value: draft.model,
        placeholder: t('compose.serviceDefault'),
        spellCheck: false,
        autoComplete: 'off',
        onChange: (event) => patch({ model: event.target.value }),
      }}
    />
  );
}

/** Size or quality: a preset, saved when chosen, or a custom value, saved when valid and left. */
function PresetField(props: DefaultFieldProps & { readonly kind: 'size' | 'quality' }) {
  const { draft, patch, saver, kind } = props;
  const errorId = useId();
  const key = kind === 'size' ? 'defaultSize' : 'defaultQuality';
  const check = kind === 'size' ? checkSize : checkQuality;
  const value = kind === 'size' ? draft.size : draft.quality;
  const custom = kind === 'size' ? draft.sizeCustom : draft.qualityCustom;
  const checked = custom ? check(value) : null;
  const save = (text: string, typed: boolean): void =>
    commit(props, key, typed ? check(text) : { ok: true, value: text });
  return (
    <div>
      <ChoiceField
        label={t(`compose.${kind}.label`)}
        options={kind === 'size' ? sizeOptions() : qualityOptions()}
        value={value}
        custom={custom}
        onChange={(next, nextCustom) => {
          patch(
            kind === 'size'
              ? { size: next, sizeCustom: nextCustom }
              : { quality: next, qualityCustom: nextCustom },
          );
          if (!nextCustom) save(next, false);
        }}
        onCommit={() => save(value, true)}
        customLabel={t(`compose.${kind}.customLabel`)}
        customPlaceholder={t(`compose.${kind}.placeholder`)}
        error={checked && !checked.ok ? checked.reason : undefined}
      />
      <FieldError id={errorId} error={saver.errorOf(key)} />
    </div>
  );
}

function CountField(props: DefaultFieldProps) {
  const { draft, patch } = props;
  return (
    <TypedField
      {...props}
      setting="defaultCount"
      label={t('compose.count.label')}
      checked={checkCount(draft.count)}
      input={{
        type: 'number',
        min: 1,
        max: TASKS_PER_SUBMIT.max,
        value: draft.count,
        onChange: (event) => patch({ count: event.target.value }),
      }}
    />
  );
}

export function DefaultsSection({ settings, saver }: { settings: Settings; saver: SettingSaver }) {
  const [draft, patch] = useDraft(settings);
  const field = { draft, patch, settings, saver };
  return (
    <div className="settings-grid">
      <ModelField {...field} />
      <PresetField {...field} kind="size" />
      <PresetField {...field} kind="quality" />
      <CountField {...field} />
    </div>
  );
}
