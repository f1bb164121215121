/**
 * Every translation of the main catalogue, bundled into main (22 × a few tens of KB, read once,
 * so no loading on demand). The renderer never imports this file: it loads one locale's file
 * when it shows that locale (renderer/i18n/catalogues.ts).
 */
import ar from './main-locales/ar.json';
import cs from './main-locales/cs.json';
import de from './main-locales/de.json';
import es from './main-locales/es.json';
import fa from './main-locales/fa.json';
import fr from './main-locales/fr.json';
import he from './main-locales/he.json';
import hi from './main-locales/hi.json';
import id from './main-locales/id.json';
import it from './main-locales/it.json';
import ja from './main-locales/ja.json';
import ko from './main-locales/ko.json';
import nl from './main-locales/nl.json';
import pl from './main-locales/pl.json';
import ptBR from './main-locales/pt-BR.json';
import ru from './main-locales/ru.json';
import sv from './main-locales/sv.json';
import tr from './main-locales/tr.json';
import uk from './main-locales/uk.json';
import vi from './main-locales/vi.json';
import zhCN from './main-locales/zh-CN.json';
import zhTW from './main-locales/zh-TW.json';

/** The translations by locale tag; tests/unit/shared/main-catalogue.test.ts checks it matches LOCALES. */
export const MAIN_TRANSLATIONS: Readonly<Record<string, Readonly<Record<string, unknown>>>> = {
  ar,
  cs,
  de,
  es,
  fa,
  fr,
  he,
  hi,
  id,
  it,
  ja,
  ko,
  nl,
  pl,
  'pt-BR': ptBR,
  ru,
  sv,
  tr,
  uk,
  vi,
  'zh-CN': zhCN,
  'zh-TW': zhTW,
};
