import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { SetupAgentView, SetupPreviewResponse } from '../../../../router/api-types.js';
import { api } from '../../api/endpoints.js';
import { Panel } from '../../components/Panel.js';
import { errorText, QueryStatus } from '../../components/QueryStatus.js';

const SETUP_KEY = ['setup-agents'] as const;

const STATE_WORDS: Record<SetupAgentView['state'], string> = {
  set: 'points at this router',
  not_set: 'not set up',
  unreadable: 'cannot be edited',
};

/** The preview of a change to one agent's file, and the buttons that make it or leave it. */
function SetupPreview({
  preview,
  onApply,
  onCancel,
  busy,
}: {
  preview: SetupPreviewResponse;
  onApply(): void;
  onCancel(): void;
  busy: boolean;
}) {
  const label = `${preview.undo ? 'Undo' : 'Setup'} change to ${preview.file}`;
  return (
    <div className="setup-preview">
      <pre tabIndex={0} aria-label={label}>
        <code>{preview.diff}</code>
      </pre>
      <div className="form-actions">
        <button type="button" className="btn btn-primary btn-small" onClick={onApply} disabled={busy}>
          {preview.undo ? 'Undo it' : 'Write it'}
        </button>
        <button type="button" className="btn btn-small" onClick={onCancel} disabled={busy}>
          Cancel
        </button>
      </div>
    </div>
  );
}

/** One agent: its file, where it stands, and Set up (or Undo) with the change shown before it is made. */
function AgentSetupRow({ agent }: { agent: SetupAgentView }) {
  const client = useQueryClient();
  const preview = useMutation({ mutationFn: (undo: boolean) => api.previewSetup(agent.id, undo) });
  const apply = useMutation({
    mutationFn: api.applySetup,
    onSuccess: () => preview.reset(),
    onSettled: () => client.invalidateQueries({ queryKey: SETUP_KEY }),
  });
  const shown = preview.data && preview.data.nothing === null ? preview.data : null;
  const ask = (undo: boolean) => {
    apply.reset();
    preview.mutate(undo);
  };
  return (
    <li className="setup-agent" aria-label={agent.name}>
      <div className="setup-agent-head">
        <strong>{agent.name}</strong>
        <span className={`setup-state setup-${agent.state}`}>{STATE_WORDS[agent.state]}</span>
        <span className="setup-actions">
          <button
            type="button"
            className="btn btn-small"
            onClick={() => ask(false)}
            disabled={preview.isPending}
          >
            Set up
          </button>
          {agent.state === 'set' && (
            <button
              type="button"
              className="btn btn-small"
              onClick={() => ask(true)}
              disabled={preview.isPending}
            >
              Undo
            </button>
          )}
        </span>
      </div>
      <p className="mono small muted setup-file">{agent.file}</p>
      {agent.problem && <p className="field-error">{agent.problem}</p>}
      {preview.data?.nothing && <p className="muted small">{preview.data.nothing}</p>}
      {shown && (
        <SetupPreview
          preview={shown}
          onApply={() => apply.mutate(shown)}
          onCancel={() => preview.reset()}
          busy={apply.isPending}
        />
      )}
      <div aria-live="polite">
        {apply.data && <p className="notice notice-ok">{apply.data.message}</p>}
        {(preview.error ?? apply.error) && (
          <p className="field-error">{errorText(preview.error ?? apply.error)}</p>
        )}
      </div>
    </li>
  );
}

/**
 * `fcm-router setup` from the dashboard: each agent's own config file on the router's machine, pointed at
 * this router after its change is shown (a backup is kept beside it, and Undo puts it back).
 */
export function AgentSetupPanel() {
  const agents = useQuery({ queryKey: SETUP_KEY, queryFn: api.setupAgents });
  return (
    <Panel title="Set up an agent" className="panel-wide">
      <p className="muted small">
        Writes the agent’s own config to use this router: the change is shown first, the old file is kept as{' '}
        <code>.fcm-router.bak</code> beside it, and nothing else in it changes.
      </p>
      {agents.data?.demo && (
        // As `fcm-router setup` says on the demo: the agent would be pointed at a router that goes away.
        <p className="notice notice-warn" role="note">
          This router is the demo: Set up points the agent at its port, with the demo set’s window. Set the
          agent up again once your own daemon runs.
        </p>
      )}
      <QueryStatus isPending={agents.isPending} error={agents.error} what="the agents" />
      {agents.data && (
        <ul className="setup-agents">
          {agents.data.agents.map((agent) => (
            <AgentSetupRow key={agent.id} agent={agent} />
          ))}
        </ul>
      )}
    </Panel>
  );
}
