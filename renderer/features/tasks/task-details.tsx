/** Everything about one task: full prompt, parameters, ids, times, error detail and images. */
import type { ReactNode } from 'react';
import { isDemoEndpoint } from '../../../shared/domain/submit-target';
import type { ImageRecord, TaskRecord } from '../../../shared/domain/task-record';
import { imageUrl } from '../../lib/api';
import { Button } from '../../components/button';
import { Dialog } from '../../components/dialog';
import { ErrorMessage } from '../../components/error-message';
import { IconButton } from '../../components/icon-button';
import { IsolatedName } from '../../components/isolated-name';
import { TaskSeed } from '../../components/task-seed';
import { DEFAULT_PROVIDER } from '../../../shared/domain/providers';
import { paramSchemaOf } from '../../../shared/domain/model-param-schemas';
import type { ParamValue } from '../../../shared/domain/model-params';
import {
  errorText,
  formatBytes,
  formatDecimal,
  formatDateTime,
  formatDimensions,
  formatSize,
  imageErrorText,
  t,
  type MessageKey,
} from '../../i18n';
import { costDetail } from '../../lib/cost-text';
import { recordServiceLabel } from '../../lib/service-label';
import { useNow } from '../../lib/use-now';
import { useAppStore } from '../../store/app-store';
import { selectRecord } from '../../store/record-selectors';
import { CancelTaskButton } from './cancel-action';
import { OpenImageButton } from './open-image-button';
import { DetailsImageMetadata } from './details-image-metadata';
import { RequestActions } from './request-actions';
import { isViewable } from '../../lib/saved-images';
import { StatusAction, useRerun, useReusePrompt } from './task-row-actions';
import { describeStatus, type StatusView } from './task-status';
import { StatusWords } from './task-message';
import { useCopyTaskId } from './use-copy-task-id';
import { qualityLabel } from '../../lib/request-options';

function Row({ label, children }: { label: MessageKey; children: ReactNode }) {
  return (
    <>
      <dt>{t(label)}</dt>
      <dd>{children}</dd>
    </>
  );
}

/**
 * The service by its name ("fal.ai", the demo's), its address on hover and a button that copies
 * it. An imported record's came from the archive or folder, which anyone could have written: said
 * so, so it does not read as an address the user entered.
 */
function ServiceName({ record }: { record: TaskRecord }) {
  const copy = useAppStore((state) => state.copyServiceAddress);
  const demo = isDemoEndpoint(record.endpoint);
  return (
    <>
      {demo ? (
        t('tasks.details.demo')
      ) : (
        <span className="details__service">
          <span title={record.endpoint}>{recordServiceLabel(record)}</span>
          <IconButton
            icon="copy"
            size="small"
            label={t('tasks.details.copyAddress')}
            onClick={() => void copy(record.endpoint)}
          />
        </span>
      )}
      {record.imported ? (
        <span className="field__hint"> {t('tasks.details.serviceImported')}</span>
      ) : null}
    </>
  );
}

/** "The service sent 256 × 256, not the 1024 × 1024 asked for": an image not of the size asked. */
function sizeRemark(asked: string | undefined, image: ImageRecord): string | null {
  const match = /^(\d+)x(\d+)$/.exec(asked ?? '');
  if (!match || asked === undefined || !image.width || !image.height) return null;
  if (Number(match[1]) === image.width && Number(match[2]) === image.height) return null;
  const got = formatDimensions(image.width, image.height);
  return t('tasks.details.sizeDiffers', { got, asked: formatSize(asked) });
}

function when(ms: number | null): string {
  return ms === null ? t('tasks.details.never') : formatDateTime(ms);
}

function Images({ record }: { record: TaskRecord }) {
  if (record.images.length === 0) return null;
  return (
    <ul className="details-images">
      {record.images.map((image) => {
        const source = image.state === 'saved' ? (image.thumbnail ?? image.file) : undefined;
        const remark = sizeRemark(record.request.size, image);
        return (
          <li key={image.index} className="details-images__item">
            {source && isViewable(image) ? (
              <OpenImageButton
                record={record}
                image={image}
                className="details-images__box details-images__box--open"
              >
                <img src={imageUrl(source)} alt={record.request.prompt} />
              </OpenImageButton>
            ) : (
              <span className="details-images__box">
                {source ? <img src={imageUrl(source)} alt={record.request.prompt} /> : null}
              </span>
            )}
            <span className="muted">
              {t(`tasks.image.state.${image.state}`)}
              {image.width && image.height
                ? ` · ${formatDimensions(image.width, image.height)}`
                : ''}
              {image.bytes !== undefined ? ` · ${formatBytes(image.bytes)}` : ''}
            </span>
            {remark ? <span className="details-images__remark">{remark}</span> : null}
            {image.error ? (
              <span className="details-images__error">{imageErrorText(image)}</span>
            ) : null}
            <DetailsImageMetadata image={image} />
          </li>
        );
      })}
    </ul>
  );
}

/** The status line's sentence is the error's own (shown in full below it). */
function saysError(record: TaskRecord, status: StatusView): boolean {
  return (
    record.error !== null &&
    (status.quote !== undefined || status.sentence === errorText(record.error))
  );
}

/** The seed the service used, and "Use this seed" (the form takes the request with it, locked). */
function SeedRow({ record }: { record: TaskRecord }) {
  const useSeed = useAppStore((state) => state.useTaskSeed);
  if (record.seed === undefined) return null;
  return (
    <Row label="tasks.details.seed">
      <TaskSeed record={record} onUse={useSeed} />
    </Row>
  );
}

/** An option's value as the reader writes it: a number in the locale, a switch in words. */
function optionValue(value: ParamValue): string {
  if (typeof value === 'boolean')
    return t(value ? 'tasks.details.optionOn' : 'tasks.details.optionOff');
  return typeof value === 'number' ? formatDecimal(value) : value;
}

/**
 * The model's own options the task asked for: a common one (aspect ratio, negative prompt, …) by
 * Pictor's label in the reader's words, any other by the name its service documents.
 */
function OptionsRow({ record }: { record: TaskRecord }) {
  const entries = Object.entries(record.request.params ?? {});
  if (entries.length === 0) return null;
  const schema = paramSchemaOf(record.provider ?? DEFAULT_PROVIDER, record.request.model);
  return (
    <Row label="compose.options.label">
      <dl className="details__options">
        {entries.map(([name, value]) => {
          const common = schema?.params[name]?.common;
          return (
            <div key={name} className="details__option">
              <dt>
                {common === undefined ? (
                  <bdi className="mono">{name}</bdi>
                ) : (
                  <span title={name}>{t(`compose.option.${common}`)}</span>
                )}
              </dt>
              <dd>
                <bdi>{optionValue(value)}</bdi>
              </dd>
            </div>
          );
        })}
      </dl>
    </Row>
  );
}

/** What was asked, where, when, and what it cost. */
function DetailsList({ record }: { record: TaskRecord }) {
  const { request } = record;
  return (
    <dl className="details__list">
      <Row label="tasks.details.modelAsked">
        <IsolatedName name={request.model} fallback={t('compose.serviceDefault')} />
      </Row>
      <Row label="tasks.details.modelReported">
        <IsolatedName name={record.reportedModel} fallback={t('tasks.details.modelNotReported')} />
      </Row>
      <SeedRow record={record} />
      <OptionsRow record={record} />
      <Row label="tasks.details.size">
        {request.size ? formatSize(request.size) : t('compose.serviceDefault')}
      </Row>
      <Row label="tasks.details.quality">
        {request.quality ? qualityLabel(request.quality) : t('compose.serviceDefault')}
      </Row>
      <Row label="tasks.details.taskId">
        <span className="mono">{record.taskId ?? t('tasks.details.noTaskId')}</span>
      </Row>
      <Row label="tasks.details.origin">
        {t(record.origin === 'tracked' ? 'tasks.details.tracked' : 'tasks.details.ownTask')}
      </Row>
      <Row label="tasks.details.service">
        <ServiceName record={record} />
      </Row>
      <Row label="tasks.details.account">
        <span className="mono">{record.account || t('tasks.details.noAccount')}</span>
      </Row>
      <Row label="tasks.details.created">{when(record.createdAt)}</Row>
      <Row label="tasks.details.submitted">{when(record.submittedAt)}</Row>
      <Row label="tasks.details.finished">{when(record.finishedAt)}</Row>
      {record.cost ? (
        <Row label="tasks.details.cost">
          {/* Where the service said it (a field, a header) is for whoever asks: on hover. */}
          <span title={record.cost.source === 'reported' ? record.cost.field : undefined}>
            {costDetail(record.cost)}
          </span>
        </Row>
      ) : null}
      <Row label="tasks.details.checks">
        {t('tasks.details.checksValue', { count: record.polls })}
      </Row>
    </dl>
  );
}

function DetailsBody({
  record,
  status,
}: {
  record: TaskRecord;
  status: ReturnType<typeof describeStatus>;
}) {
  const { request } = record;
  return (
    <div className="details">
      <p className="details__prompt">{request.prompt}</p>
      <p className={`task-row__status tone--${status.tone}`}>
        <span className="badge">{status.label}</span>{' '}
        {/* The error below says it already, with its details. */}
        {!saysError(record, status) ? <span>{status.sentence}</span> : null}
      </p>
      {record.error ? (
        <ErrorMessage
          role="none"
          tone={status.tone === 'warning' ? 'warning' : 'error'}
          message={
            status.quote === undefined ? errorText(record.error) : <StatusWords status={status} />
          }
          detail={record.error.detail}
        />
      ) : null}
      <DetailsList record={record} />
      <Images record={record} />
    </div>
  );
}

export function TaskDetails({ onRemove }: { onRemove: (record: TaskRecord) => void }) {
  // From the records table: also a task opened from the Costs screen, in no page loaded yet.
  const item = useAppStore((state) => selectRecord(state.tasksDetailsId)(state));
  const close = useAppStore((state) => state.tasksOpenDetails);
  const reuse = useReusePrompt();
  const rerun = useRerun();
  const copy = useCopyTaskId();
  const now = useNow(
    item !== null && item.record.status === 'processing' && item.record.hold === null,
  );
  if (!item) return null;
  const { record } = item;
  const taskId = record.taskId;
  return (
    <Dialog
      title={t('tasks.details.title')}
      size="large"
      onClose={() => close(null)}
      footer={
        <>
          <StatusAction record={record} />
          <CancelTaskButton record={record} variant="button" />
          {taskId ? (
            <Button icon="copy" onClick={() => void copy(taskId)}>
              {t('tasks.action.copyId')}
            </Button>
          ) : null}
          {record.status === 'completed' ? (
            <Button
              icon="retry"
              title={t('tasks.action.rerun.hint')}
              onClick={() => rerun(record.localId)}
            >
              {t('tasks.action.rerun')}
            </Button>
          ) : null}
          <Button icon="send" onClick={() => reuse(record)}>
            {t('tasks.action.reuse')}
          </Button>
          <RequestActions record={record} />
          <Button variant="danger" icon="trash" onClick={() => onRemove(record)}>
            {t('tasks.action.remove')}
          </Button>
        </>
      }
    >
      <DetailsBody record={record} status={describeStatus(item, now)} />
    </Dialog>
  );
}
