/**
 * Defaults for new prompts. A preset is saved when chosen; typed values are saved when they
 * are valid and the field is left (or Enter is pressed), with the reason shown while they are not.
 */
import { useEffect, useId, useRef, useState } from 'react';
import type { Settings } from '../../../shared/domain/settings';
import { t } from '../../i18n';
import { TASKS_PER_SUBMIT } from '../../../shared/domain/limits';
import { checkCount, checkModel, checkQuality, checkSize } from '../../lib/request-validation';
import { draftFromDefaults } from '../../store/compose-slice';
import { ChoiceField } from '../compose/choice-field';
import { qualityOptions, sizeOptions } from '../compose/options';
import { Field } from '../../components/field';
import { FieldError, fieldProblem } from './field-error';
import type { SettingSaver } from './use-setting-save';

type Draft = ReturnType<typeof draftFromDefaults>;

/** Follows saved changes field by field, so a field being edited keeps what was typed. */
function useDraft(settings: Settings): [Draft, (patch: Partial<Draft>) => void] {
  const [draft, setDraft] = useState<Draft>(() => draftFromDefaults(settings));
  const previous = useRef(draftFromDefaults(settings));
  useEffect(() => {
    const next = draftFromDefaults(settings);
    const before = previous.current;
    previous.current = next;
    setDraft((current) => ({
      model: next.model !== before.model ? next.model : current.model,
      size: next.size !== before.size ? next.size : current.size,
      sizeCustom: next.size !== before.size ? next.sizeCustom : current.sizeCustom,
      quality: next.quality !== before.quality ? next.quality : current.quality,
      qualityCustom: next.quality !== before.quality ? next.qualityCustom : current.qualityCustom,
      count: next.count !== before.count ? next.count : current.count,
    }));
  }, [settings]);
  return [draft, (patch) => setDraft((current) => ({ ...current, ...patch }))];
}

export function DefaultsSection({ settings, saver }: { settings: Settings; saver: SettingSaver }) {
  const sizeError = useId();
  const qualityError = useId();
  const [draft, patch] = useDraft(settings);
  const sizeCheck = draft.sizeCustom ? checkSize(draft.size) : null;
  const qualityCheck = draft.qualityCustom ? checkQuality(draft.quality) : null;
  const countCheck = checkCount(draft.count);
  const modelCheck = checkModel(draft.model);

  const commitSize = (size: string, custom: boolean): void => {
    const checked = custom ? checkSize(size) : { ok: true as const, value: size };
    if (checked.ok && checked.value !== settings.defaultSize) {
      void saver.save('defaultSize', { defaultSize: checked.value });
    }
  };
  const commitQuality = (quality: string, custom: boolean): void => {
    const checked = custom ? checkQuality(quality) : { ok: true as const, value: quality };
    if (checked.ok && checked.value !== settings.defaultQuality) {
      void saver.save('defaultQuality', { defaultQuality: checked.value });
    }
  };
  const commitCount = (): void => {
    if (countCheck.ok && countCheck.value !== settings.defaultCount) {
      void saver.save('defaultCount', { defaultCount: countCheck.value });
    }
  };
  const commitModel = (): void => {
    if (modelCheck.ok && modelCheck.value !== settings.defaultModel) {
      void saver.save('defaultModel', { defaultModel: modelCheck.value });
    }
  };

  return (
    <div className="settings-grid">
      <Field
        label={t('compose.model.label')}
        error={fieldProblem(
          modelCheck.ok ? undefined : modelCheck.reason,
          saver.errorOf('defaultModel'),
        )}
      >
        {(control) => (
          <input
            {...control}
            className="input"
            value={draft.model}
            placeholder={t('compose.serviceDefault')}
            spellCheck={false}
            autoComplete="off"
            onChange={(event) => patch({ model: event.target.value })}
            onBlur={commitModel}
            onKeyDown={(event) => {
              if (event.key === 'Enter') commitModel();
            }}
          />
        )}
      </Field>
      <div>
        <ChoiceField
          label={t('compose.size.label')}
          options={sizeOptions()}
          value={draft.size}
          custom={draft.sizeCustom}
          onChange={(size, sizeCustom) => {
            patch({ size, sizeCustom });
            if (!sizeCustom) commitSize(size, false);
          }}
          onCommit={() => commitSize(draft.size, true)}
          customLabel={t('compose.size.customLabel')}
          customPlaceholder={t('compose.size.placeholder')}
          error={sizeCheck && !sizeCheck.ok ? sizeCheck.reason : undefined}
        />
        <FieldError id={sizeError} error={saver.errorOf('defaultSize')} />
      </div>
      <div>
        <ChoiceField
          label={t('compose.quality.label')}
          options={qualityOptions()}
          value={draft.quality}
          custom={draft.qualityCustom}
          onChange={(quality, qualityCustom) => {
            patch({ quality, qualityCustom });
            if (!qualityCustom) commitQuality(quality, false);
          }}
          onCommit={() => commitQuality(draft.quality, true)}
          customLabel={t('compose.quality.customLabel')}
          customPlaceholder={t('compose.quality.placeholder')}
          error={qualityCheck && !qualityCheck.ok ? qualityCheck.reason : undefined}
        />
        <FieldError id={qualityError} error={saver.errorOf('defaultQuality')} />
      </div>
      <Field
        label={t('compose.count.label')}
        error={fieldProblem(
          countCheck.ok ? undefined : countCheck.reason,
          saver.errorOf('defaultCount'),
        )}
      >
        {(control) => (
          <input
            {...control}
            className="input"
            type="number"
            min={1}
            max={TASKS_PER_SUBMIT.max}
            value={draft.count}
            onChange={(event) => patch({ count: event.target.value })}
            onBlur={commitCount}
            onKeyDown={(event) => {
              if (event.key === 'Enter') commitCount();
            }}
          />
        )}
      </Field>
    </div>
  );
}
