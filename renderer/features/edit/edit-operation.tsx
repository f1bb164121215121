/**
 * The operation (edit, fill, expand, upscale), each one no set-up model can do disabled with the
 * sentence naming the model that would; the upscale factor and the expansion's sides.
 */
import { useId } from 'react';
import {
  IMAGE_OPERATIONS,
  UPSCALE_FACTORS,
  type Expand,
  type ImageOperation,
} from '../../../shared/domain/image-inputs';
import type { ProviderId } from '../../../shared/domain/providers';
import { t, type MessageKey } from '../../i18n';
import type { EditDraft } from '../../store/edit-draft';
import { operationBlocked } from './edit-model';

const OPERATION_LABELS: Readonly<Record<ImageOperation, MessageKey>> = {
  edit: 'edit.op.edit',
  fill: 'edit.op.fill',
  outpaint: 'edit.op.outpaint',
  upscale: 'edit.op.upscale',
};

const SIDES: readonly (keyof Expand)[] = ['top', 'right', 'bottom', 'left'];

interface OperationProps {
  readonly draft: EditDraft;
  readonly setUp: readonly ProviderId[];
  readonly onChange: (change: Partial<EditDraft>) => void;
}

/** One operation's radio, disabled with its reason when no set-up model can do it. */
function OperationRadio(
  props: OperationProps & { readonly operation: ImageOperation; readonly name: string },
) {
  const { operation, draft, setUp } = props;
  const blocked = operationBlocked(operation, setUp, operation === 'upscale' ? draft.factor : 2);
  const reasonId = `${props.name}-${operation}`;
  return (
    <div className="edit-choice">
      <label className="checkbox">
        <input
          type="radio"
          name={props.name}
          value={operation}
          checked={draft.operation === operation}
          disabled={blocked !== null}
          aria-describedby={blocked === null ? undefined : reasonId}
          onChange={() => props.onChange({ operation })}
        />
        {t(OPERATION_LABELS[operation])}
      </label>
      {blocked === null ? null : (
        <p className="field__hint" id={reasonId}>
          {blocked}
        </p>
      )}
    </div>
  );
}

export function EditOperation(props: OperationProps) {
  const name = useId();
  const { draft, onChange } = props;
  return (
    <>
      <fieldset className="radio-group">
        <legend className="field__label">{t('edit.operation')}</legend>
        {IMAGE_OPERATIONS.map((operation) => (
          <OperationRadio key={operation} {...props} operation={operation} name={name} />
        ))}
      </fieldset>
      {draft.operation === 'upscale' ? (
        <fieldset className="radio-group">
          <legend className="field__label">{t('edit.factor')}</legend>
          {UPSCALE_FACTORS.map((factor) => (
            <label key={factor} className="checkbox">
              <input
                type="radio"
                name={`${name}-factor`}
                checked={draft.factor === factor}
                onChange={() => onChange({ factor })}
              />
              {t('edit.factorValue', { factor })}
            </label>
          ))}
        </fieldset>
      ) : null}
      {draft.operation === 'outpaint' ? <ExpandSides draft={draft} onChange={onChange} /> : null}
    </>
  );
}

function ExpandSides({ draft, onChange }: Pick<OperationProps, 'draft' | 'onChange'>) {
  const id = useId();
  return (
    <fieldset className="edit-sides">
      <legend className="field__label">{t('edit.expandSides')}</legend>
      {SIDES.map((side) => (
        <span key={side} className="field">
          <label htmlFor={`${id}-${side}`}>{t(`edit.side.${side}`)}</label>
          <input
            id={`${id}-${side}`}
            className="input settings-narrow"
            type="number"
            min={0}
            max={4096}
            value={draft.expand[side]}
            onChange={(event) => {
              const value = Math.max(
                0,
                Math.min(4096, Math.trunc(Number(event.target.value) || 0)),
              );
              onChange({ expand: { ...draft.expand, [side]: value } });
            }}
          />
        </span>
      ))}
    </fieldset>
  );
}
