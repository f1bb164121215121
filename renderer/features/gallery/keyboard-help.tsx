/**
 * The keyboard-help sheet (? in the gallery, the viewer and the Triage view): every key of the
 * grid, of triage and of the viewer, and the window's own (the prompt history), written for
 * this platform (⌘ on a Mac, Ctrl elsewhere).
 */
import { Dialog } from '../../components/dialog';
import { t, type MessageKey } from '../../i18n';
import { isMacPlatform } from '../../lib/platform';
import { useAppStore } from '../../store/app-store';
import './keyboard-help.css';

type Row = readonly [keys: string, what: MessageKey];

function sections(mod: string): readonly (readonly [MessageKey, readonly Row[]])[] {
  return [
    [
      'triage.help.section.triage',
      [
        ['1 – 5', 'triage.help.rate'],
        ['0', 'triage.help.clear'],
        ['P, F', 'triage.help.pick'],
        ['X', 'triage.help.reject'],
        ['U', 'triage.help.unflag'],
        ['Shift', 'triage.help.advance'],
        ['B', 'triage.help.board'],
        [`${mod}B`, 'triage.help.chooseBoard'],
        ['T', 'triage.help.tags'],
        [`${mod}Z`, 'triage.help.undo'],
        [`Shift+${mod}Z`, 'triage.help.redo'],
        [`Shift+${mod}T`, 'triage.help.triageView'],
        [`${mod}Delete`, 'triage.help.purge'],
      ],
    ],
    [
      'triage.help.section.grid',
      [
        ['← → ↑ ↓', 'triage.help.move'],
        ['Enter', 'triage.help.open'],
        ['Space', 'triage.help.select'],
        ['Delete', 'triage.help.delete'],
        ['?', 'triage.help.sheet'],
        [`${mod}\\`, 'triage.help.sidebar'],
      ],
    ],
    [
      'triage.help.section.viewer',
      [
        [`${mod}0`, 'triage.help.fit'],
        [`${mod}1`, 'triage.help.actual'],
        ['Z', 'triage.help.toggleZoom'],
        ['+ −', 'triage.help.zoom'],
        ['← →', 'triage.help.move'],
        ['Esc', 'triage.help.close'],
      ],
    ],
    ['triage.help.section.window', [[`Shift+${mod}H`, 'triage.help.promptHistory']]],
  ];
}

/** The sheet, while the store says it is open. */
export function KeyboardHelp() {
  const open = useAppStore((s) => s.triageHelpOpen);
  const mac = useAppStore((s) => isMacPlatform(s.appInfo?.platform));
  if (!open) return null;
  const mod = mac ? '⌘' : 'Ctrl+';
  const close = () => useAppStore.getState().triageShowHelp(false);
  return (
    <Dialog title={t('triage.help.title')} onClose={close} size="large">
      {sections(mod).map(([title, rows]) => (
        <section key={title} className="keyboard-help__section">
          <h3>{t(title)}</h3>
          <dl className="keyboard-help__list">
            {rows.map(([keys, what]) => (
              <div key={`${keys}-${what}`} className="keyboard-help__row">
                <dt>
                  <kbd dir="ltr">{mac ? keys.replace('Delete', '⌫') : keys}</kbd>
                </dt>
                <dd>{t(what)}</dd>
              </div>
            ))}
          </dl>
        </section>
      ))}
    </Dialog>
  );
}
