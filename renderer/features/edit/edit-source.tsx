/**
 * The source as main shows it (`inputs:address`, the gallery's own scheme), its size, and the
 * smaller copy offered when it is over a chosen model's maximum (made by main, `inputs:downscale`).
 */
import { useEffect, useState } from 'react';
import type { InputImage } from '../../../shared/domain/image-inputs';
import { Button } from '../../components/button';
import { formatBytes, formatDimensions, t } from '../../i18n';
import { useAppStore } from '../../store/app-store';
import type { EditTarget as Target } from '../../store/edit-draft';
import { sizeOffer } from './edit-model';

const store = useAppStore.getState;

/** Where the page shows a stored input; null until main says (or when it refuses). */
export function useInputAddress(sha256: string): string | null {
  const [url, setUrl] = useState<string | null>(null);
  useEffect(() => {
    let current = true;
    setUrl(null);
    void store()
      .editAddress(sha256)
      .then((got) => current && setUrl(got));
    return () => {
      current = false;
    };
  }, [sha256]);
  return url;
}

export function EditSourceView({ image }: { readonly image: InputImage }) {
  const url = useInputAddress(image.sha256);
  return (
    <figure className="edit-source">
      {url ? <img src={url} alt={t('edit.source')} data-testid="edit-source" /> : null}
      <figcaption>
        {t('edit.sourceFacts', {
          size: formatDimensions(image.width, image.height),
          bytes: formatBytes(image.bytes),
        })}
      </figcaption>
    </figure>
  );
}

/** The offer of a smaller copy; `tooLarge` is true while the source is over a chosen model's maximum. */
export function DownscaleOffer({
  image,
  targets,
}: {
  image: InputImage;
  targets: readonly Target[];
}) {
  const offer = sizeOffer(image, targets);
  const [busy, setBusy] = useState(false);
  const [problem, setProblem] = useState<string | null>(null);
  if (!offer) return null;
  const downscale = async () => {
    setBusy(true);
    try {
      setProblem(await store().editDownscale(offer.maxSide, offer.maxBytes));
    } finally {
      setBusy(false);
    }
  };
  return (
    <div className="edit-downscale" role="group" aria-label={t('edit.downscale')}>
      <p>{offer.text}</p>
      <Button size="small" disabled={busy} onClick={() => void downscale()}>
        {busy ? t('edit.downscaling') : t('edit.downscale')}
      </Button>
      {problem ? <p role="alert">{problem}</p> : null}
    </div>
  );
}
