import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { BrowserRouter } from 'react-router-dom';
import { App } from './App';

createRoot(document.getElementById('root')!).render(
  <StrictMode>
    {/* Real paths (/pec, /settings/shops), not react-admin's default hash URLs. */}
    <BrowserRouter>
      <App />
    </BrowserRouter>
  </StrictMode>,
);
