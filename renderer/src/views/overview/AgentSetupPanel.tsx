import { useIsFetching, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { SetupAgentView, SetupPreviewResponse } from '../../../../router/api-types.js';
import { isApiError } from '../../api/client.js';
import { api } from '../../api/endpoints.js';
import { Panel } from '../../components/Panel.js';
import { errorText, QueryStatus } from '../../components/QueryStatus.js';

const SETUP_KEY = ['setup-agents'] as const;

const STATE_WORDS: Record<SetupAgentView['state'], string> = {
  set: 'points at this router',
  not_set: 'not set up',
  unreadable: 'cannot be edited',
};

/** What the row says over a new preview, made because the file changed since the one shown before. */
export const FILE_CHANGED =
  'The file changed since the preview, so nothing was written. This is the change as the file is now: check it, then write it.';

/** Whether a write was refused because the agent's file changed since its preview (409 `setup_changed`). */
function isSetupChanged(error: unknown): boolean {
  return isApiError(error) && error.code === 'setup_changed';
}

/**
 * The preview of a change to one agent's file, and the buttons that make it or leave it. `changed`: the file
 * changed since the preview shown before this one, and a write of that one was refused.
 */
function SetupPreview({
  preview,
  changed,
  onApply,
  onCancel,
  busy,
}: {
  preview: SetupPreviewResponse;
  changed: boolean;
  onApply(): void;
  onCancel(): void;
  busy: boolean;
}) {
  const label = `${preview.undo ? 'Undo' : 'Setup'} change to ${preview.file}`;
  return (
    <div className="setup-preview">
      {changed && (
        <p className="notice notice-warn small" role="status">
          {FILE_CHANGED}
        </p>
      )}
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

/**
 * The row's buttons: Set up, and Undo once the agent points at this router. A file that cannot be edited
 * offers neither (setup would only refuse it again, for the reason the row shows) but Check again, which
 * reads the agents' files anew once it is fixed.
 */
function AgentButtons({
  agent,
  busy,
  ask,
  checkAgain,
}: {
  agent: SetupAgentView;
  busy: boolean;
  ask(undo: boolean): void;
  checkAgain(): void;
}) {
  const checking = useIsFetching({ queryKey: SETUP_KEY }) > 0;
  if (agent.state === 'unreadable')
    return (
      <span className="setup-actions">
        <button
          type="button"
          className="btn btn-small"
          onClick={checkAgain}
          disabled={checking}
          aria-label={`Check ${agent.name}’s file again`}
        >
          {checking ? 'Checking…' : 'Check again'}
        </button>
      </span>
    );
  return (
    <span className="setup-actions">
      <button
        type="button"
        className="btn btn-small"
        onClick={() => ask(false)}
        disabled={busy}
        aria-label={`Set up ${agent.name}`}
      >
        Set up
      </button>
      {agent.state === 'set' && (
        <button
          type="button"
          className="btn btn-small"
          onClick={() => ask(true)}
          disabled={busy}
          aria-label={`Undo ${agent.name} setup`}
        >
          Undo
        </button>
      )}
    </span>
  );
}

/**
 * One agent: its file, where it stands, and Set up (or Undo) with the change shown before it is made. A
 * write refused because the file changed since the preview brings the change as the file is now, to check
 * and write instead. A preview refused because the file cannot be edited reads the agents' files anew, so
 * the row says why and stops offering Set up.
 */
function AgentSetupRow({ agent }: { agent: SetupAgentView }) {
  const client = useQueryClient();
  const refreshAgents = () => client.invalidateQueries({ queryKey: SETUP_KEY });
  const [changed, setChanged] = useState(false);
  const preview = useMutation({
    mutationFn: (undo: boolean) => api.previewSetup(agent.id, undo),
    onError: () => refreshAgents(),
  });
  const apply = useMutation({
    mutationFn: api.applySetup,
    onSuccess: () => preview.reset(),
    onError: (error, sent) => {
      if (!isSetupChanged(error)) return;
      setChanged(true);
      preview.mutate(sent.undo);
    },
    onSettled: refreshAgents,
  });
  const shown = preview.data && preview.data.nothing === null ? preview.data : null;
  const ask = (undo: boolean) => {
    apply.reset();
    setChanged(false);
    preview.mutate(undo);
  };
  const checkAgain = () => {
    preview.reset();
    apply.reset();
    void refreshAgents();
  };
  // Said by the new preview instead, once it is asked for; a file that cannot be edited says why above.
  const error = agent.state === 'unreadable' ? null : (preview.error ?? (changed ? null : apply.error));
  return (
    <li className="setup-agent" aria-label={agent.name}>
      <div className="setup-agent-head">
        <strong>{agent.name}</strong>
        <span className={`setup-state setup-${agent.state}`}>{STATE_WORDS[agent.state]}</span>
        <AgentButtons agent={agent} busy={preview.isPending} ask={ask} checkAgain={checkAgain} />
      </div>
      <p className="mono small muted setup-file">{agent.file}</p>
      {agent.problem && <p className="field-error">{agent.problem}</p>}
      {preview.data?.nothing && <p className="muted small">{preview.data.nothing}</p>}
      {shown && (
        <SetupPreview
          preview={shown}
          changed={changed}
          onApply={() => apply.mutate(shown)}
          onCancel={() => {
            preview.reset();
            setChanged(false);
          }}
          busy={apply.isPending}
        />
      )}
      <div aria-live="polite">
        {apply.data && <p className="notice notice-ok">{apply.data.message}</p>}
        {error && <p className="field-error">{errorText(error)}</p>}
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
