/** The renderer's entry: theme first (no flash), then the store, then the window. */
// First: zod must not probe `new Function` under the page's CSP (see zod-jitless.ts).
import './lib/zod-jitless';
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
