import { startTransition, StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App } from './App';
import { holdHistoryForDrawers } from './admin/unsavedChanges';

// Before the router listens: a drawer holding changes not saved asks before the back button drops them.
holdHistoryForDrawers();

const root = createRoot(document.getElementById('root')!);
// The first render is a transition: React renders it in slices and the page responds between them.
startTransition(() =>
  root.render(
    <StrictMode>
      {/* Real paths (/pec, /settings/shops), not react-admin's default hash URLs. Navigations are not transitions:
          react-admin's logout navigates then resets its queries, and a transition would let that reset re-render the
          old route first, looping on the login redirect for seconds. */}
      <BrowserRouter useTransitions={false}>
        <App />
      </BrowserRouter>
    </StrictMode>,
  ),
);
