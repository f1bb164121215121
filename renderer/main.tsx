/** The renderer's entry: theme first (no flash), then the store, then the window. */
// First: zod must not probe `new Function` under the page's CSP (see zod-jitless.ts).
import './lib/zod-jitless';
// The stylesheets of every part, in the cascade order they always had (before the window's own,
// tokens to shell, below): the parts loaded when opened (shell/lazy-parts.tsx) keep their rules
// here, so a rule of a part and one of the window that tie still resolve as before.
import './components/content-credentials.css';
import './features/compare/compare.css';
import './features/compose/prompt-history-picker.css';
import './features/compose/compose.css';
import './features/edit/mask-editor/mask-editor.css';
import './features/edit/edit.css';
import './features/costs/costs.css';
import './features/gallery/gallery-basics.css';
import './features/gallery/filter-notice.css';
import './features/gallery/viewer.css';
import './features/gallery/gallery-selection.css';
import './features/gallery/keyboard-help.css';
import './features/gallery/triage-view.css';
import './features/gallery/boards-sidebar.css';
import './features/gallery/gallery.css';
import './features/settings/settings.css';
import './features/tasks/batch-card.css';
import './features/tasks/tasks.css';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './app';
import { applyInitialLanguage } from './shell/use-language';
import { applyTheme } from './shell/use-theme';
import { initStore } from './store/app-store';
import './styles/tokens.css';
import './styles/base.css';
import './styles/components.css';
import './styles/shell.css';

applyTheme('system');
const container = document.getElementById('root');
if (container) {
  initStore();
  // The chosen language first (English needs no loading), so the first paint is in it.
  void applyInitialLanguage().finally(() => {
    createRoot(container).render(
      <StrictMode>
        <App />
      </StrictMode>,
    );
  });
}
