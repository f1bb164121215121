/**
 * Smart boards in the sidebar: "Save as smart board…" (the gallery's filters now, under a name
 * main checks), and the rules of the smart board shown, a rule naming a board or tag that is gone
 * struck through with main's sentence (the board still opens; that rule matches nothing). The
 * dialog open and the name typed in it are the store's (form-drafts.ts): a new language draws
 * them anew as they were.
 */
import { useCallback, useId, useState } from 'react';
import type { SmartRule } from '../../../shared/domain/smart-board';
import { serviceRuleTest } from '../../../shared/domain/smart-service-rule';
import type { SmartBoardOutput } from '../../../shared/ipc/triage-contract';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { TextField } from '../../components/text-field';
import { errorText, formatDateTime, t } from '../../i18n';
import { useAppStore } from '../../store/app-store';
import type { SmartDialog } from '../../store/form-drafts';
import { useFormDraft } from '../../store/use-form-draft';
import { serviceIdLabel } from '../../lib/service-label';

const RATING_OPS = { '=': 'eq', '>=': 'gte', '<=': 'lte' } as const;

/** A rule in words. */
function ruleText(rule: SmartRule): string {
  switch (rule.kind) {
    case 'prompt':
      return t('triage.rule.prompt', { words: rule.words });
    case 'service': {
      const test = serviceRuleTest(rule);
      const service = serviceIdLabel(test.service);
      return t(test.demoToo ? 'triage.rule.serviceWithDemo' : 'triage.rule.service', { service });
    }
    case 'model':
      return t('triage.rule.model', { model: rule.model });
    case 'date':
      return t('triage.rule.date', {
        from: rule.from === undefined ? '…' : formatDateTime(rule.from),
        to: rule.to === undefined ? '…' : formatDateTime(rule.to),
      });
    case 'rating':
      return t('triage.rule.rating', { op: RATING_OPS[rule.op], stars: rule.value });
    case 'flag':
      return t('triage.rule.flag', { flag: rule.flag });
    case 'tags':
      return t('triage.rule.tags', { mode: rule.mode, tags: rule.tags.join(', ') });
    case 'board':
      return t('triage.rule.board', { board: rule.board });
    case 'unfiled':
      return t('triage.sidebar.unfiled');
    case 'cost':
    case 'size':
      return t('triage.rule.range', { kind: rule.kind });
    case 'credentials':
      return t('triage.rule.credentials', { verdict: rule.verdict });
  }
}

/** The rules of the smart board shown, those naming something gone struck through. */
export function SmartRulesList({ board }: { board: SmartBoardOutput }) {
  return (
    <ul className="boards-sidebar__rules" aria-label={t('triage.rule.list', { name: board.name })}>
      {board.problem ? <li>{errorText({ message: '', sentence: board.problem })}</li> : null}
      {board.reports.map((report, at) => (
        <li key={at}>
          {report.missing ? <del>{ruleText(report.rule)}</del> : ruleText(report.rule)}
          {report.problems.map((problem) => (
            <span key={problem.key + JSON.stringify(problem.params ?? {})} className="muted">
              {' '}
              {errorText({ message: '', sentence: problem })}
            </span>
          ))}
        </li>
      ))}
    </ul>
  );
}

/** The smart boards' dialog open (null: none) and its setter, which forgets the name typed. */
export function useSmartDialog(): [SmartDialog | null, (next: SmartDialog | null) => void] {
  const [dialog, keepDialog] = useFormDraft('smart.dialog', null);
  const drop = useAppStore((state) => state.formDraftDrop);
  const setDialog = useCallback(
    (next: SmartDialog | null) => {
      drop('smart.name');
      keepDialog(next);
    },
    [drop, keepDialog],
  );
  return [dialog, setDialog];
}

/** "Save as smart board…" and its dialog. */
export function SaveSmartBoard() {
  const [dialog, setDialog] = useSmartDialog();
  return (
    <>
      <Button size="small" variant="ghost" onClick={() => setDialog({ kind: 'save' })}>
        {t('triage.smart.save')}
      </Button>
      {dialog?.kind === 'save' ? (
        <SmartNameDialog
          title={t('triage.smart.saveTitle')}
          body={t('triage.smart.saveBody')}
          confirm={t('triage.smart.saveConfirm')}
          initial=""
          submit={(name) => useAppStore.getState().triageSaveSmart(name)}
          onClose={() => setDialog(null)}
        />
      ) : null}
    </>
  );
}

export interface SmartNameDialogProps {
  readonly title: string;
  readonly body?: string;
  readonly confirm: string;
  readonly initial: string;
  /** Main's sentence when it refuses the name (the dialog stays, with what was typed), else null. */
  readonly submit: (name: string) => Promise<string | null>;
  readonly onClose: () => void;
}

/** A smart board's name: a new one ("Save as smart board…") or a new name for one ("Rename…"). */
export function SmartNameDialog(props: SmartNameDialogProps) {
  const { onClose } = props;
  const form = useId();
  const [name, setName] = useFormDraft('smart.name', props.initial);
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    const refused = await props.submit(name);
    setBusy(false);
    if (refused === null) onClose();
    else setProblem(refused);
  };
  return (
    <Dialog
      title={props.title}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" form={form} variant="primary" disabled={busy}>
            {props.confirm}
          </Button>
        </>
      }
    >
      <form
        id={form}
        noValidate
        onSubmit={(event) => {
          event.preventDefault();
          void submit();
        }}
      >
        {props.body ? <p>{props.body}</p> : null}
        <TextField
          label={t('triage.boards.name')}
          value={name}
          onChange={setName}
          error={problem === null ? null : { message: problem }}
          autoComplete="off"
          spellCheck={false}
          data-autofocus
        />
      </form>
    </Dialog>
  );
}
