import { useQuery, useQueryClient } from '@tanstack/react-query';
import type { ConfigFileEvent, ConfigFileProblem } from '../../../router/api-types.js';
import { CONFIG_FILE_EVENT_KEY, useConfig } from '../api/queries.js';

/** The last change made to config.json outside the router, as LiveProvider recorded it; null when none. */
function useConfigFileEvent(): ConfigFileEvent | null {
  const { data } = useQuery<ConfigFileEvent | null>({
    queryKey: CONFIG_FILE_EVENT_KEY,
    queryFn: () => null,
    enabled: false,
    initialData: null,
  });
  return data;
}

function ProblemBanner({ problem }: { problem: ConfigFileProblem }) {
  return (
    <div className="banner banner-bad" role="alert">
      <div>
        <p>
          <strong>config.json has an error, so the router did not apply it.</strong> It keeps running on the
          last good config, and saves from here are refused until the file is fixed (they would replace your
          edit). File: <code>{problem.path}</code>
        </p>
        <ul className="change-list">
          {problem.issues.map((issue) => (
            <li key={`${issue.path}:${issue.message}`}>
              <code>{issue.path}</code>: {issue.message}
            </li>
          ))}
        </ul>
      </div>
    </div>
  );
}

/**
 * Says when config.json was changed outside the router: an invalid edit (from the config itself, so a page
 * opened later shows it too) until it is fixed; an applied or removed file once, until dismissed.
 */
export function ConfigFileBanner() {
  const client = useQueryClient();
  const problem = useConfig().data?.fileProblem ?? null;
  const event = useConfigFileEvent();
  if (problem) return <ProblemBanner problem={problem} />;
  if (event === null || event.status === 'invalid') return null;
  const dismiss = () => client.setQueryData(CONFIG_FILE_EVENT_KEY, null);
  return (
    <div className="banner banner-warn" role="status">
      <span>
        {event.status === 'applied' ? (
          <>
            config.json was changed on disk: applied
            {event.changed.length > 0 && <span className="mono small"> ({event.changed.join(', ')})</span>}
          </>
        ) : (
          'config.json was removed: the router keeps its config and writes the file again on the next save'
        )}
      </span>
      <button type="button" className="btn btn-small" onClick={dismiss}>
        Dismiss
      </button>
    </div>
  );
}
