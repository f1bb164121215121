/** The preset choices of size and quality, labelled from the catalogue. */
import { formatSize, t, type MessageKey } from '../i18n';
import { QUALITY_PRESETS, SIZE_PRESETS } from './request-validation';

const SIZE_SHAPES: Record<(typeof SIZE_PRESETS)[number], MessageKey> = {
  '1024x1024': 'compose.size.square',
  '1536x1024': 'compose.size.landscape',
  '1024x1536': 'compose.size.portrait',
};

const QUALITY_LABELS: Record<(typeof QUALITY_PRESETS)[number], MessageKey> = {
  low: 'compose.quality.low',
  medium: 'compose.quality.medium',
  high: 'compose.quality.high',
  auto: 'compose.quality.auto',
};

/** One preset as a choice field shows it. */
export interface ChoiceOption {
  readonly value: string;
  readonly label: string;
}

export function sizeOptions(): ChoiceOption[] {
  return SIZE_PRESETS.map((size) => ({
    value: size,
    label: t(SIZE_SHAPES[size], { size: formatSize(size) }),
  }));
}

export function qualityOptions(): ChoiceOption[] {
  return QUALITY_PRESETS.map((quality) => ({ value: quality, label: t(QUALITY_LABELS[quality]) }));
}

/** A quality as the user reads it: a preset by its name in the shown language, else as typed. */
export function qualityLabel(quality: string): string {
  return Object.hasOwn(QUALITY_LABELS, quality)
    ? t(QUALITY_LABELS[quality as (typeof QUALITY_PRESETS)[number]])
    : quality;
}
