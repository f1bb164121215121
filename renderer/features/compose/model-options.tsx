/**
 * The compose form's model options, built from the chosen model's schema: the options image
 * clients show first (aspect ratio or size, resolution tier, seed, negative prompt, number of
 * images, guidance, steps, output format, safety) in a row, the rest under "More options". A
 * value the model refuses is named under its control as main would name it (compose-params.ts
 * reads it with the engine's own check), in the shown language. A model Pictor has no schema for
 * shows nothing here.
 */
import { useEffect } from 'react';
import { useShallow } from 'zustand/react/shallow';
import { shippedParamSchema } from '../../../shared/domain/model-param-schemas';
import type { ProviderId } from '../../../shared/domain/providers';
import { commonParam, orderedParams, type ParamSchema } from '../../../shared/domain/model-params';
import type { Sentence } from '../../../shared/i18n/sentence';
import { decimalSeparator, errorText, t } from '../../i18n';
import { useAppStore } from '../../store/app-store';
import {
  draftParams,
  draftSchema,
  draftSeed,
  typedParams,
  withTypedParams,
  type TypedParams,
} from '../../store/compose-params';
import { ParamControl } from './param-control';
import { RefreshOptions } from './refresh-options';
import { SeedField } from './seed-field';

interface ModelOptionsProps {
  readonly schema: ParamSchema;
  /** Where the options come from, for "Refresh options". */
  readonly draft: { readonly provider: ProviderId; readonly model: string };
  readonly typed: TypedParams;
  readonly onType: (name: string, text: string) => void;
  /** Why the model refuses an option, by name. */
  readonly problems: Readonly<Record<string, Sentence>>;
  /** The seed field, where the model takes a seed. */
  readonly seed: {
    readonly text: string;
    readonly locked: boolean;
    readonly problem?: Sentence | undefined;
    readonly onChange: (text: string, locked: boolean) => void;
  };
}

function problemText(problem: Sentence | undefined): string | undefined {
  return problem === undefined ? undefined : errorText({ message: '', sentence: problem });
}

/** The options of `schema` as controls, the common ones first and the rest folded away. */
function ModelOptions({ schema, draft, typed, onType, problems, seed }: ModelOptionsProps) {
  const seedName = commonParam(schema, 'seed');
  const names = orderedParams(schema);
  const control = (name: string) => {
    const spec = schema.params[name];
    if (spec === undefined) return null;
    if (name === seedName) {
      return <SeedField key={name} {...seed} problem={problemText(seed.problem)} />;
    }
    return (
      <ParamControl
        key={name}
        name={name}
        spec={spec}
        text={typed[name] ?? ''}
        onChange={(text) => onType(name, text)}
        problem={problemText(problems[name])}
      />
    );
  };
  const common = names.filter((name) => schema.params[name]?.common !== undefined);
  const more = names.filter((name) => schema.params[name]?.common === undefined);
  // A refused option under "More options" opens it, so the sentence is seen.
  const moreRefused = more.some((name) => problems[name] !== undefined);
  return (
    <fieldset className="compose__options">
      <legend className="field__label">{t('compose.options.label')}</legend>
      <RefreshOptions provider={draft.provider} model={draft.model} />
      <div className="compose__options-common">{common.map(control)}</div>
      {more.length > 0 ? (
        <details className="compose__options-more" {...(moreRefused ? { open: true } : {})}>
          <summary>{t('compose.options.more')}</summary>
          <div className="compose__options-common">{more.map(control)}</div>
        </details>
      ) : null}
    </fieldset>
  );
}

/** The form's options, from the store: the draft's model on its service, typed per model. */
export function ComposeModelOptions() {
  const { draft, setDraft, firstUse } = useAppStore(
    useShallow((state) => ({
      draft: state.composeDraft,
      setDraft: state.composeSetDraft,
      firstUse: state.modelOptionsFirstUse,
      // Read so the options follow a refresh: the kept schemas are in use once read.
      kept: state.modelOptionsKept,
    })),
  );
  const listed = shippedParamSchema(draft.provider, draft.model.trim()) !== undefined;
  useEffect(() => {
    // A listed model's first use: its published options, fetched once (never a half-typed id).
    if (listed) firstUse(draft.provider, draft.model);
  }, [listed, firstUse, draft.provider, draft.model]);
  const schema = draftSchema(draft);
  if (!schema || Object.keys(schema.params).length === 0) {
    return <RefreshOptions provider={draft.provider} model={draft.model} />;
  }
  const typed = typedParams(draft);
  const { problems } = draftParams(draft, decimalSeparator());
  const seed = draftSeed(draft);
  return (
    <ModelOptions
      schema={schema}
      draft={draft}
      typed={typed}
      problems={problems}
      onType={(name, text) =>
        setDraft({ params: withTypedParams(draft, { ...typed, [name]: text }) })
      }
      seed={{
        text: draft.seed,
        locked: draft.seedLocked,
        problem: 'problem' in seed ? seed.problem : undefined,
        onChange: (text, locked) => setDraft({ seed: text, seedLocked: locked }),
      }}
    />
  );
}
