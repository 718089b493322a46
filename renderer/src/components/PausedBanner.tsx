import { useMutation } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { api } from '../api/endpoints.js';
import { useRouterState } from '../api/queries.js';
import { useRoute } from '../lib/use-route.js';
import { errorText } from './QueryStatus.js';

/**
 * While routing is paused, says so on every view but the Overview, with the way out: there the status card
 * says it and holds the Resume button, and a second one above it would be one too many.
 */
export function PausedBanner() {
  const { data } = useRouterState();
  const view = useRoute();
  // Resumed from here: the banner goes with its button, and the keyboard goes on from the view.
  const resumedHere = useRef(false);
  const resume = useMutation({
    mutationFn: () => api.setPaused(false),
    onError: () => {
      resumedHere.current = false;
    },
  });
  const paused = data?.paused ?? false;
  useEffect(() => {
    if (paused || !resumedHere.current) return;
    resumedHere.current = false;
    if (document.activeElement === document.body) document.getElementById('main')?.focus();
  }, [paused]);
  if (!paused || view === 'overview') return null;
  const press = (): void => {
    if (resume.isPending) return;
    resumedHere.current = true;
    resume.mutate();
  };
  return (
    <div className="banner banner-warn" role="status">
      <span>
        Routing is paused: agents get 503 <code>router_paused</code>.
      </span>
      <button type="button" className="btn btn-small" onClick={press} aria-disabled={resume.isPending}>
        Resume routing
      </button>
      {resume.error && <span className="field-error">{errorText(resume.error)}</span>}
    </div>
  );
}
