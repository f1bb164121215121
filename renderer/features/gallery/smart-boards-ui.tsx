/**
 * Smart boards in the sidebar: "Save as smart board…" (the gallery's filters now, under a name
 * main checks), and the rules of the smart board shown, a rule naming a board or tag that is gone
 * struck through with main's sentence (the board still opens; that rule matches nothing).
 */
import { useId, useState } from 'react';
import type { SmartRule } from '../../../shared/domain/smart-board';
import type { SmartBoardOutput } from '../../../shared/ipc/triage-contract';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { TextField } from '../../components/text-field';
import { errorText, formatDateTime, t } from '../../i18n';
import { useAppStore } from '../../store/app-store';

const RATING_OPS = { '=': 'eq', '>=': 'gte', '<=': 'lte' } as const;

/** A rule in words. */
function ruleText(rule: SmartRule): string {
  switch (rule.kind) {
    case 'prompt':
      return t('triage.rule.prompt', { words: rule.words });
    case 'service':
      return t('triage.rule.service', { service: rule.provider });
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

/** "Save as smart board…" and its dialog. */
export function SaveSmartBoard() {
  const [open, setOpen] = useState(false);
  return (
    <>
      <Button size="small" variant="ghost" onClick={() => setOpen(true)}>
        {t('triage.smart.save')}
      </Button>
      {open ? <SaveSmartDialog onClose={() => setOpen(false)} /> : null}
    </>
  );
}

function SaveSmartDialog({ onClose }: { onClose: () => void }) {
  const form = useId();
  const [name, setName] = useState('');
  const [problem, setProblem] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const submit = async () => {
    setBusy(true);
    const refused = await useAppStore.getState().triageSaveSmart(name);
    setBusy(false);
    if (refused === null) onClose();
    else setProblem(refused);
  };
  return (
    <Dialog
      title={t('triage.smart.saveTitle')}
      onClose={onClose}
      footer={
        <>
          <Button onClick={onClose}>{t('common.cancel')}</Button>
          <Button type="submit" form={form} variant="primary" disabled={busy}>
            {t('triage.smart.saveConfirm')}
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
        <p>{t('triage.smart.saveBody')}</p>
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
