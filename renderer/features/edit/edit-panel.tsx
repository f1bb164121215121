/**
 * The edit panel (a dialog over the window): the source, the operation, the mask of a fill, the
 * prompt, references, the target models (1 to 6), where inputs go and main's plan of it. "Send"
 * asks once per service before its uploads become public links, then runs the edit and opens
 * its compare view; main's refusal is shown, nothing sent.
 */
import { useId, useState } from 'react';
import { Button } from '../../components/button';
import { FOCUSABLE } from '../../lib/focus-trap';
import { useOneRun } from '../../lib/use-fan-out';
import { CancelAndAction, ConfirmDialog, Dialog } from '../../components/dialog';
import { TextField } from '../../components/text-field';
import { t } from '../../i18n';
import { serviceLabel } from '../../lib/service-label';
import { useAppStore } from '../../store/app-store';
import type { EditSource, EditStart } from '../../store/edit-slice';
import { editInput, referenceLimit, sizeOffer } from './edit-model';
import { EditOperation } from './edit-operation';
import { EditReferences } from './edit-references';
import { EditPlanFacts, RouteChoice } from './edit-routes';
import { consentsNeeded } from './edit-send';
import { DownscaleOffer, EditSourceView, useInputAddress } from './edit-source';
import { EditTargets } from './edit-targets';
import { MaskSlot } from './mask-slot';
import { useEditDraft } from './use-edit-draft';
import type { ProviderId } from '../../../shared/domain/providers';
import type { EditInputPayload } from '../../../shared/ipc/inputs-contract';
import './edit.css';

const store = useAppStore.getState;
const run = (input: EditInputPayload) => store().editRun(input);

export function EditLayer() {
  const panel = useAppStore((state) => state.editPanel);
  return panel ? <EditPanel key={panel.opened} {...panel} /> : null;
}

/** Send: consent first where needed (one service at a time), then the run. */
function useSend(
  input: ReturnType<typeof editInput>,
  plan: ReturnType<typeof useEditDraft>['plan'],
) {
  const [asking, setAsking] = useState<ProviderId | null>(null);
  const { sending, refused, setRefused, start } = useOneRun(run);
  const send = async () => {
    if (!input || !plan?.ok || sending) return;
    const needed = consentsNeeded(plan.value, input, store().editConsented);
    if (needed[0]) return setAsking(needed[0]);
    await start(input);
  };
  const agree = async (provider: ProviderId) => {
    setAsking(null);
    const problem = await store().editConsent(provider);
    if (problem) return setRefused(problem);
    await send();
  };
  return { asking, setAsking, sending, refused, send, agree };
}

type DraftState = ReturnType<typeof useEditDraft>;

/** The source, operation, mask, prompt, references and targets. */
function EditForm({ draft, setDraft, choices, setUp, standing }: Omit<DraftState, 'plan'>) {
  const url = useInputAddress(draft.source.sha256);
  const fill = draft.operation === 'fill';
  return (
    <>
      <EditSourceView image={draft.source} />
      <DownscaleOffer image={draft.source} targets={draft.targets} />
      <EditOperation draft={draft} setUp={setUp} onChange={setDraft} />
      {fill ? (
        <div className="edit-panel__part" data-edit-part="mask">
          <MaskSlot source={draft.source} url={url} onChange={(masks) => setDraft({ masks })} />
        </div>
      ) : null}
      <div className="edit-panel__part" data-edit-part="prompt">
        <TextField
          label={t('edit.prompt')}
          hint={t('edit.promptHint')}
          value={draft.prompt}
          maxLength={4_000}
          onChange={(prompt) => setDraft({ prompt })}
        />
      </div>
      {draft.operation === 'upscale' ? null : (
        <EditReferences
          references={draft.references}
          limit={referenceLimit(draft.targets)}
          onChange={(references) => setDraft({ references })}
        />
      )}
      <div className="edit-panel__part" data-edit-part="targets">
        <EditTargets
          choices={choices}
          targets={draft.targets}
          standing={standing}
          onChange={(targets) => setDraft({ targets })}
        />
      </div>
    </>
  );
}

/** What Send still waits for, first in the panel's order; null when nothing the user must add. */
type Missing = 'mask' | 'prompt' | 'targets';

function missingFor(draft: DraftState['draft']): Missing | null {
  if (draft.operation === 'fill' && !draft.masks) return 'mask';
  if (draft.prompt.trim() === '') return 'prompt';
  return draft.targets.length === 0 ? 'targets' : null;
}

const MISSING_TEXT = {
  mask: 'edit.maskNeeded',
  prompt: 'edit.promptNeeded',
  targets: 'edit.targetsNeeded',
} as const;

/**
 * Beside a Send that cannot be pressed yet, the one thing it waits for, as a link that moves the
 * focus to where it is given (a model to tick may be screens down the panel).
 */
function SendWaits({ missing }: { missing: Missing | null }) {
  if (missing === null) return null;
  const go = () => {
    const part = document.querySelector<HTMLElement>(`[data-edit-part="${missing}"]`);
    part?.scrollIntoView?.({ block: 'nearest' });
    part?.querySelector<HTMLElement>(FOCUSABLE)?.focus();
  };
  return (
    <Button variant="ghost" size="small" className="edit-panel__waits" onClick={go}>
      {t(MISSING_TEXT[missing])}
    </Button>
  );
}

function EditPanel({ source, start }: { source: EditSource; start: EditStart }) {
  const state = useEditDraft(source, start);
  const { draft, setDraft, plan } = state;
  const neverUpload = useAppStore((s) => s.settings?.neverUploadInputs ?? false);
  const routeName = useId();
  const input = editInput(draft);
  const { asking, setAsking, sending, refused, send, agree } = useSend(input, plan);
  const tooLarge = sizeOffer(draft.source, draft.targets) !== null;
  const close = () => store().editClose();
  const ready = input !== null && plan?.ok === true && plan.value.refusal === undefined;
  const footer = (
    <>
      <SendWaits missing={missingFor(draft)} />
      <CancelAndAction
        label={t('edit.run')}
        onCancel={close}
        go={() => void send()}
        disabled={sending || !ready || tooLarge}
      />
    </>
  );
  return (
    <Dialog title={t('edit.title')} onClose={close} size="large" footer={footer}>
      <div className="edit-panel">
        <EditForm {...state} />
        <RouteChoice
          route={draft.route}
          neverUpload={neverUpload}
          name={routeName}
          onChange={(route) => setDraft({ route })}
        />
        <EditPlanFacts answer={plan} waiting={plan === null && input !== null} refused={refused} />
      </div>
      {asking ? (
        <ConfirmDialog
          title={t('edit.consentTitle')}
          body={t('edit.consentBody', { service: serviceLabel(asking) })}
          confirmLabel={t('edit.consentAgree')}
          onConfirm={() => void agree(asking)}
          onCancel={() => setAsking(null)}
        />
      ) : null}
    </Dialog>
  );
}
