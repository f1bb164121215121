/**
 * "Refresh options" beside a model's options: main fetches the options the model's service
 * publishes (fal's OpenAPI, Replicate's version schema) and keeps them; the form then shows them
 * without a restart (store/model-options-slice.ts). Busy while it asks; a failure (a hostile or
 * too large schema, a service out of reach) is main's sentence in the shown language, and the
 * options shown before stay. For the seed's own service, which publishes none, "Options from a
 * file…" asks main to open its own dialog and keep the options of the small JSON schema chosen
 * (read and checked in main; the page never names a path).
 */
import { useShallow } from 'zustand/react/shallow';
import { PUBLISHING_SERVICES } from '../../../shared/domain/fetched-param-schema';
import type { ProviderId } from '../../../shared/domain/providers';
import { Button } from '../../components/button';
import { Spinner } from '../../components/spinner';
import { errorText, t } from '../../i18n';
import { ApiError } from '../../lib/api';
import { useAppStore } from '../../store/app-store';
import { paramsKey } from '../../store/compose-params';

/** The services whose model options the user may give as a file: the seed's own, which publishes none. */
const FILE_SERVICES: ReadonlySet<ProviderId> = new Set<ProviderId>(['pictor']);

/**
 * The button ("Refresh options" where the service publishes its models' options, "Options from a
 * file…" for the seed's own service), and the sentence of its last failure for this model.
 */
export function RefreshOptions({ provider, model }: { provider: ProviderId; model: string }) {
  const { busy, problem, refresh, fromFile } = useAppStore(
    useShallow((state) => ({
      busy: state.modelOptionsBusy,
      problem: state.modelOptionsProblem,
      refresh: state.modelOptionsRefresh,
      fromFile: state.modelOptionsFromFile,
    })),
  );
  const published = PUBLISHING_SERVICES.has(provider);
  if ((!published && !FILE_SERVICES.has(provider)) || model.trim() === '') return null;
  const key = paramsKey(provider, model);
  const said = problem?.key === key ? problem.problem : null;
  const text =
    said === null
      ? null
      : said instanceof ApiError
        ? said.text()
        : errorText({ message: '', sentence: said });
  const ask = published ? refresh : fromFile;
  return (
    <div className="compose__options-refresh">
      {busy === key ? (
        <Button size="small" disabled aria-busy="true">
          <Spinner />
          {t(published ? 'compose.options.refreshing' : 'compose.options.reading')}
        </Button>
      ) : (
        <Button size="small" onClick={() => void ask(provider, model)}>
          {t(published ? 'compose.options.refresh' : 'compose.options.fromFile')}
        </Button>
      )}
      {text === null ? null : (
        <p className="field__error" role="alert">
          {text}
        </p>
      )}
    </div>
  );
}
