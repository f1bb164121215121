/**
 * "Compare…" from the compose form: the form's prompt, size, quality and model options on 2 to 6 targets (a
 * service and a model each), and main's plan of it shown as it changes: each target left out
 * with its sentence, what was adapted, the estimate and the caps' warnings, main's sentences in the
 * window's language. "Compare" runs it (main plans again) and opens the compare view; a refusal
 * (a hard cap) is shown, nothing sent. A target's service is named as the compose form's Service
 * box names it (store/use-service-choices.ts): the demo standing in for it, without a key, or itself;
 * the plan's lines name a target from main's facts as its cells will (lib/service-label.ts), a
 * target left out with its service's state now where it has no key ("fal.ai (no key) · …"). The
 * rows are the store's (compare-slice.ts): the window drawn again in a new language keeps them.
 */
import { useId, useMemo } from 'react';
import { COMPARE_TARGETS } from '../../../shared/domain/compare';
import type {
  CompareInputPayload,
  ComparePlanOutput,
  CostSumOutput,
} from '../../../shared/ipc/compare-contract';
import { Button } from '../../components/button';
import { CancelAndAction, Dialog } from '../../components/dialog';
import { SelectField } from '../../components/select-field';
import { TextField } from '../../components/text-field';
import type { Sentence } from '../../../shared/i18n/sentence';
import { errorText, t } from '../../i18n';
import { formatCost } from '../../lib/cost-text';
import { fanOutTargetName } from '../../lib/service-label';
import { useLivePlan, useOneRun } from '../../lib/use-fan-out';
import { useAppStore } from '../../store/app-store';
import {
  firstCompareRows,
  type CompareRow as Row,
  type ComparePlanAnswer,
} from '../../store/compare-slice';
import type { ComposeDraft } from '../../store/compose-draft';
import { requestOf } from '../../store/compose-submit-actions';
import { useServiceChoices, useServiceStandings } from '../../store/use-service-choices';
import { useWorkflowModels } from '../../store/use-workflow-models';

const store = useAppStore.getState;

/** The form's model options and seed, with the service and model they were typed for. */
function optionsOf(draft: ComposeDraft): CompareInputPayload['options'] {
  const { params, seed } = requestOf(draft).request;
  if (params === undefined && seed === undefined) return undefined;
  const model = draft.model.trim();
  return {
    provider: draft.provider,
    ...(model ? { model } : {}),
    ...(params === undefined ? {} : { params }),
    ...(seed === undefined ? {} : { seed }),
  };
}

/**
 * The request main plans: the form's prompt, size, quality, model options and seed on each row's
 * service and model (main says per row which options it does not take).
 */
function inputOf(rows: readonly Row[]): CompareInputPayload | null {
  const draft = store().composeDraft;
  const { prompt, size, quality } = draft;
  if (prompt.trim() === '') return null;
  const shared = {
    ...(size.trim() ? { size: size.trim() } : {}),
    ...(quality.trim() ? { quality: quality.trim() } : {}),
  };
  const targets = rows.map(({ provider, model }) => ({
    provider,
    ...(model.trim() ? { model: model.trim() } : {}),
    ...shared,
  }));
  const options = optionsOf(draft);
  return { prompts: [prompt.trim()], targets, ...(options ? { options } : {}) };
}

export function CompareDialog() {
  const open = useAppStore((state) => state.compareDialogOpen);
  return open ? <OpenDialog /> : null;
}

const askPlan = (input: CompareInputPayload) => store().comparePlan(input);
const run = (input: CompareInputPayload) => store().compareRun(input);

/** Main's plan of the rows, asked again whenever they or the prompt change. */
function useRowsPlan(rows: readonly Row[], prompt: string): ComparePlanAnswer | null {
  // The prompt is read from the store by inputOf: a new one is a new input.
  const input = useMemo(() => inputOf(rows), [rows, prompt]);
  return useLivePlan(input, askPlan);
}

function OpenDialog() {
  const prompt = useAppStore((state) => state.composeDraft.prompt);
  const rows = useAppStore((state) => state.compareRows);
  const answer = useRowsPlan(rows, prompt);
  const { sending, refused, start } = useOneRun(run);
  const close = () => store().compareShowDialog(false);
  const send = () => {
    const input = inputOf(rows);
    if (input) void start(input);
  };
  const plan = answer?.ok ? answer.plan : null;
  const footer = (
    <CancelAndAction
      label={t('compare.dialog.run')}
      onCancel={close}
      go={send}
      disabled={sending || !plan || plan.refusal !== undefined}
    />
  );
  return (
    <Dialog title={t('compare.dialog.title')} onClose={close} size="large" footer={footer}>
      <p className="compare-dialog__prompt">
        {prompt.trim() ? `${t('compare.dialog.prompt')}: ${prompt}` : t('compare.dialog.noPrompt')}
      </p>
      <TargetRows rows={rows} onChange={(next) => store().compareSetRows(next)} />
      <PlanFacts
        answer={answer}
        refused={refused}
        waiting={answer === null && prompt.trim() !== ''}
      />
    </Dialog>
  );
}

/** One of main's sentences in the window's language. */
const said = (sentence: Sentence) => errorText({ message: '', sentence });

function sumText(sum: CostSumOutput): string {
  return Object.entries(sum.micros)
    .map(([unit, micros]) => formatCost(micros, unit as Parameters<typeof formatCost>[1]))
    .join(' + ');
}

function PlanFacts({
  answer,
  refused,
  waiting,
}: {
  answer: ComparePlanAnswer | null;
  refused: string | null;
  waiting: boolean;
}) {
  const standing = useServiceStandings();
  if (waiting) return <p role="status">{t('compare.dialog.planning')}</p>;
  if (answer === null) return null;
  if (!answer.ok) return <p role="alert">{answer.message}</p>;
  const plan: ComparePlanOutput = answer.plan;
  const total = sumText(plan.total);
  return (
    <div className="compare-dialog__plan" aria-live="polite">
      <ul>
        {plan.leftOut.map((out) => (
          <li key={`out-${String(out.slot)}`}>
            <strong>
              {t('compare.dialog.leftOut', {
                label: fanOutTargetName(out, out.service && standing[out.service]),
              })}
            </strong>{' '}
            {said(out.reason)}
          </li>
        ))}
        {plan.targets
          .filter((target) => target.notes.length > 0)
          .map((target) => (
            <li key={`notes-${String(target.slot)}`}>
              <strong>{t('compare.dialog.adapted', { label: fanOutTargetName(target) })}</strong>{' '}
              {target.notes.map(said).join(' ')}
            </li>
          ))}
        {plan.warnings.map((warning, n) => (
          <li key={`warning-${String(n)}`}>{said(warning)}</li>
        ))}
      </ul>
      {total ? <p>{t('compare.dialog.estimate', { cost: total })}</p> : null}
      {plan.total.unpriced > 0 ? (
        <p>{t('compare.dialog.unpriced', { count: plan.total.unpriced })}</p>
      ) : null}
      {plan.refusal ? <p role="alert">{said(plan.refusal)}</p> : null}
      {refused ? <p role="alert">{refused}</p> : null}
    </div>
  );
}

/** A row's model; a service whose models are workflows offers those imported. */
function ModelField({ row, onChange }: { row: Row; onChange: (model: string) => void }) {
  const list = useId();
  const workflows = useWorkflowModels(row.provider);
  return (
    <TextField
      label={t('compare.dialog.model')}
      value={row.model}
      maxLength={200}
      onChange={onChange}
      {...(workflows.length > 0 ? { list } : {})}
      after={
        workflows.length > 0 ? (
          <datalist id={list}>
            {workflows.map((name) => (
              <option key={name} value={name} />
            ))}
          </datalist>
        ) : null
      }
    />
  );
}

/** The 2 to 6 target rows: a service and a model each. */
function TargetRows({ rows, onChange }: { rows: readonly Row[]; onChange: (rows: Row[]) => void }) {
  const setRows = onChange;
  const change = (n: number, row: Partial<Row>) =>
    setRows(rows.map((old, i) => (i === n ? { ...old, ...row } : old)));
  const added = firstCompareRows(store().composeDraft)[1];
  const services = useServiceChoices();
  return (
    <>
      {rows.map((row, n) => (
        <fieldset key={n} className="compare-dialog__row">
          <legend>{t('compare.dialog.target', { slot: n + 1 })}</legend>
          <SelectField
            label={t('compare.dialog.service')}
            value={row.provider}
            options={services}
            onChange={(provider) => change(n, { provider })}
          />
          <ModelField row={row} onChange={(model) => change(n, { model })} />
          {rows.length > COMPARE_TARGETS.min ? (
            <Button size="small" onClick={() => setRows(rows.filter((_, i) => i !== n))}>
              {t('compare.dialog.remove', { slot: n + 1 })}
            </Button>
          ) : null}
        </fieldset>
      ))}
      {rows.length < COMPARE_TARGETS.max ? (
        <Button size="small" onClick={() => added && setRows([...rows, added])}>
          {t('compare.dialog.add')}
        </Button>
      ) : null}
    </>
  );
}
