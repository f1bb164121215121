/**
 * ComfyUI's workflows in Settings: the ones kept as models (each with Remove), and the import of
 * another: main's open dialog picks the file, the form maps its inputs to the request's roles once
 * and names the model (use-workflow-import.ts). The saved workflow is then a model of ComfyUI in
 * the compose form and in compare.
 */
import { useEffect, useId } from 'react';
import { WORKFLOW_ROLES, type WorkflowRole } from '../../../shared/domain/comfy-workflow';
import { Button } from '../../components/button';
import { ErrorMessage } from '../../components/error-message';
import { SelectField } from '../../components/select-field';
import { TextField } from '../../components/text-field';
import { t } from '../../i18n';
import { useAppStore } from '../../store/app-store';
import {
  ROLE_KIND,
  useWorkflowImport,
  type WorkflowImport,
  type WorkflowPick,
} from './use-workflow-import';

function roleLabel(role: WorkflowRole): string {
  return t(`settings.workflows.role.${role}`);
}

/** The inputs a role may take, as choices: `6.text`, its node's title or class, its value. */
function roleChoices(pick: WorkflowPick, role: WorkflowRole) {
  const inputs = pick.nodes.flatMap((node) =>
    node.inputs
      .filter((input) => input.kind === ROLE_KIND[role])
      .map((input) => ({
        value: `${node.id}.${input.name}`,
        label: `${node.id}.${input.name} · ${node.title ?? node.classType} · ${String(input.value)}`,
      })),
  );
  return [{ value: '', label: t('settings.workflows.unused') }, ...inputs];
}

function MappingForm({ flow }: { flow: WorkflowImport }) {
  const legend = useId();
  const { pick } = flow;
  if (!pick) return null;
  return (
    <form
      className="workflow-import"
      aria-labelledby={legend}
      onSubmit={(event) => {
        event.preventDefault();
        if (flow.ready) void flow.save();
      }}
    >
      <p id={legend}>{t('settings.workflows.mapping')}</p>
      <TextField
        label={t('settings.workflows.name')}
        hint={t('settings.workflows.nameHint')}
        error={
          flow.nameProblem
            ? t('settings.workflows.nameRefused', { rule: flow.nameProblem })
            : undefined
        }
        value={flow.name}
        maxLength={64}
        onChange={flow.setName}
      />
      {WORKFLOW_ROLES.map((role) => (
        <SelectField
          key={role}
          label={roleLabel(role)}
          value={flow.map[role] ?? ''}
          options={roleChoices(pick, role)}
          onChange={(path) => flow.setRole(role, path)}
        />
      ))}
      <div className="settings-actions">
        <Button type="submit" variant="primary" disabled={!flow.ready || flow.busy}>
          {t('settings.workflows.save')}
        </Button>
        <Button onClick={flow.cancel}>{t('common.cancel')}</Button>
      </div>
    </form>
  );
}

function KeptList() {
  const kept = useAppStore((state) => state.comfyWorkflows);
  const removeError = useAppStore((state) => state.comfyWorkflowsError);
  if (kept === null) return null;
  return (
    <>
      {kept.length === 0 ? <p className="muted">{t('settings.workflows.none')}</p> : null}
      <ul className="workflow-list">
        {kept.map((row) => (
          <li key={row.name}>
            <span dir="auto">{row.name}</span>{' '}
            <span className="muted">
              {WORKFLOW_ROLES.flatMap((role) =>
                row.map[role] ? [`${roleLabel(role)} → ${row.map[role]}`] : [],
              ).join(' · ')}
            </span>{' '}
            <Button
              size="small"
              onClick={() => void useAppStore.getState().workflowsRemove(row.name)}
            >
              {t('settings.workflows.remove', { name: row.name })}
            </Button>
          </li>
        ))}
      </ul>
      {removeError ? <ErrorMessage message={removeError.text()} /> : null}
    </>
  );
}

export function WorkflowsPanel() {
  const heading = useId();
  const flow = useWorkflowImport();
  useEffect(() => void useAppStore.getState().workflowsLoad(), []);
  return (
    <section className="workflows-panel" aria-labelledby={heading}>
      <h4 id={heading}>{t('settings.workflows.title')}</h4>
      <p className="muted">{t('settings.workflows.hint')}</p>
      <KeptList />
      {flow.pick ? (
        <MappingForm flow={flow} />
      ) : (
        <Button icon="folder" disabled={flow.busy} onClick={() => void flow.choose()}>
          {t('settings.workflows.import')}
        </Button>
      )}
      {flow.error ? <ErrorMessage message={flow.error.text()} detail={flow.error.detail} /> : null}
      {flow.saved ? (
        <p role="status">{t('settings.workflows.saved', { name: flow.saved })}</p>
      ) : null}
    </section>
  );
}
