// First: the chart library reads navigator.language as it loads (see locale-guard.ts).
import './lib/locale-guard.js';
import { QueryClient, QueryClientProvider } from '@tanstack/react-query';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { App } from './App.js';
import { adoptAddressToken } from './api/token.js';
import { LiveProvider } from './live/LiveProvider.js';
import './styles/base.css';
import './styles/layout.css';
import './styles/components.css';
import './styles/controls.css';
import './styles/trace.css';
import './styles/chart.css';
import './styles/views/overview.css';
import './styles/views/agent-setup.css';
import './styles/views/models.css';
import './styles/views/requests.css';
import './styles/views/providers.css';
import './styles/views/settings.css';
import './styles/views/usage.css';

// Data stays fresh through the event stream, so nothing refetches on a timer or on focus.
const queryClient = new QueryClient({
  defaultOptions: {
    queries: { staleTime: Infinity, refetchOnWindowFocus: false, retry: 1 },
  },
});

// Before anything reads the address: the views are routed by its hash.
adoptAddressToken();

const root = document.getElementById('root');
if (root) {
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <LiveProvider>
          <App />
        </LiveProvider>
      </QueryClientProvider>
    </StrictMode>,
  );
}
