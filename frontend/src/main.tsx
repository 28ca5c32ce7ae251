import { StrictMode, startTransition } from 'react'
import { createRoot } from 'react-dom/client'
import { BrowserRouter } from 'react-router-dom'
import { AppProviders } from '@/app/providers'
import { AppRoutes } from '@/app/router'
import { ErrorBoundary } from '@/components/ErrorBoundary'
import { reloadOnceForNewVersion } from '@/lib/stale-chunk'
import './index.css'

// Vite reports a chunk it could not preload (a deploy replaced it) here;
// reloading once picks up the new version (lib/stale-chunk).
window.addEventListener('vite:preloadError', (event) => {
  if (reloadOnceForNewVersion()) event.preventDefault()
})

// The first render is a transition, so React renders it in slices of a
// few milliseconds and lets the browser in between, instead of in one long
// task: a phone's main thread stays responsive while the app starts
// (Lighthouse's total blocking time).
const root = createRoot(document.getElementById('root')!)
startTransition(() =>
  root.render(
    <StrictMode>
      <ErrorBoundary>
        <AppProviders>
          <BrowserRouter>
            <AppRoutes />
          </BrowserRouter>
        </AppProviders>
      </ErrorBoundary>
    </StrictMode>,
  ),
)
