/**
 * One model option as a typed control built from its spec (shared/domain/model-params.ts): a
 * choice as a select, a number as a field with its range and step, a switch as a checkbox, text
 * as a text field. The model's default is shown (the select's first entry, the field's
 * placeholder, the checkbox's state); an empty field sends nothing, so the service's default holds.
 */
import type { CommonParam, ParamSpec } from '../../../shared/domain/model-params';
import { Field } from '../../components/field';
import { formatDecimal, t } from '../../i18n';

interface ParamControlProps {
  readonly name: string;
  readonly spec: ParamSpec;
  /** The value as typed; '' for the model's default. */
  readonly text: string;
  readonly onChange: (text: string) => void;
  /** The sentence saying why the model refuses the value, in the shown language. */
  readonly problem?: string | undefined;
}

/** The label of an option: a common one in the reader's words, any other by its service's name. */
function paramLabel(name: string, common: CommonParam | undefined): string {
  return common === undefined ? name : t(`compose.option.${common}`);
}

/** The default as the field shows it (a number in the reader's writing). */
function shownDefault(value: string | number | boolean | undefined): string {
  if (value === undefined) return '';
  return typeof value === 'number' ? formatDecimal(value) : String(value);
}

function rangeHint(spec: ParamSpec): string | undefined {
  if (spec.type !== 'integer' && spec.type !== 'number') return undefined;
  const range = { min: formatDecimal(spec.min), max: formatDecimal(spec.max) };
  return spec.step === undefined
    ? t('compose.option.range', range)
    : t('compose.option.rangeStep', { ...range, step: formatDecimal(spec.step) });
}

/** The hint under a control: the service's own description of a less common option. */
function titleHint(spec: ParamSpec): string | undefined {
  return spec.common === undefined ? spec.title : undefined;
}

type Kind<T extends ParamSpec['type']> = ParamControlProps & {
  readonly spec: Extract<ParamSpec, { type: T }>;
  readonly label: string;
  readonly className: string;
};

function ChoiceControl({ spec, text, onChange, problem, label, className }: Kind<'enum'>) {
  return (
    <Field label={label} className={className} hint={titleHint(spec)} error={problem}>
      {(control) => (
        <select
          {...control}
          className="select"
          value={text}
          onChange={(event) => onChange(event.target.value)}
        >
          <option value="">
            {spec.default === undefined
              ? t('compose.serviceDefault')
              : t('compose.option.default', { value: shownDefault(spec.default) })}
          </option>
          {spec.values.map((choice) => (
            <option key={String(choice)} value={String(choice)} dir="auto">
              {String(choice)}
            </option>
          ))}
        </select>
      )}
    </Field>
  );
}

function SwitchControl({ spec, text, onChange, problem, label, className }: Kind<'boolean'>) {
  return (
    <Field label={label} className={className} hint={titleHint(spec)} error={problem}>
      {(control) => (
        <input
          {...control}
          type="checkbox"
          role="switch"
          checked={text === '' ? spec.default === true : text === 'true'}
          onChange={(event) => onChange(String(event.target.checked))}
        />
      )}
    </Field>
  );
}

/** Free text (a negative prompt), or a number typed as the reader writes it. */
function TypedControl({
  spec,
  text,
  onChange,
  problem,
  label,
  className,
}: Kind<ParamSpec['type']>) {
  const numeric = spec.type === 'integer' || spec.type === 'number';
  const hint = [numeric ? rangeHint(spec) : undefined, titleHint(spec)].filter(Boolean).join(' · ');
  return (
    <Field label={label} className={className} hint={hint || undefined} error={problem}>
      {(control) => (
        <input
          {...control}
          className="input"
          dir="auto"
          {...(numeric ? { inputMode: spec.type === 'integer' ? 'numeric' : 'decimal' } : {})}
          value={text}
          placeholder={shownDefault(spec.default)}
          onChange={(event) => onChange(event.target.value)}
        />
      )}
    </Field>
  );
}

export function ParamControl(props: ParamControlProps) {
  const { spec, name } = props;
  const shared = {
    label: paramLabel(name, spec.common),
    className: `compose__option compose__option--${spec.type}`,
  };
  if (spec.type === 'enum') return <ChoiceControl {...props} {...shared} spec={spec} />;
  if (spec.type === 'boolean') return <SwitchControl {...props} {...shared} spec={spec} />;
  return <TypedControl {...props} {...shared} />;
}
