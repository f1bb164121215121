/** The preset choices of size and quality, labelled from the catalogue. */
import { t, type MessageKey } from '../../i18n';
import { QUALITY_PRESETS, SIZE_PRESETS } from '../../lib/request-validation';
import type { ChoiceOption } from './choice-field';

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

export function sizeOptions(): ChoiceOption[] {
  return SIZE_PRESETS.map((size) => ({ value: size, label: t(SIZE_SHAPES[size], { size }) }));
}

export function qualityOptions(): ChoiceOption[] {
  return QUALITY_PRESETS.map((quality) => ({ value: quality, label: t(QUALITY_LABELS[quality]) }));
}
