import { useMutation } from '@tanstack/react-query';
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
  const resume = useMutation({ mutationFn: () => api.setPaused(false) });
  if (!data?.paused || view === 'overview') return null;
  return (
    <div className="banner banner-warn" role="status">
      <span>
        Routing is paused: agents get 503 <code>router_paused</code>.
      </span>
      <button
        type="button"
        className="btn btn-small"
        onClick={() => resume.mutate()}
        disabled={resume.isPending}
      >
        Resume routing
      </button>
      {resume.error && <span className="field-error">{errorText(resume.error)}</span>}
    </div>
  );
}
