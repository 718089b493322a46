import { useState } from 'react';
import { CopyButton } from '../../components/CopyButton.js';
import { CopyField } from '../../components/CopyField.js';
import { Panel } from '../../components/Panel.js';
import { useAgentModels } from '../../api/queries.js';
import { agentSnippets, PLACEHOLDER_KEY } from '../../lib/agent-snippets.js';

/** Everything an agent needs to use the router, ready to copy. */
export function SetupPanel() {
  const baseUrl = `${window.location.origin}/v1`;
  // The active set's usable window, as `GET /v1/models` tells the agents.
  const models = useAgentModels().data?.data;
  const contextWindow = models?.find((model) => model.id === 'fcm')?.context_window ?? null;
  const snippets = agentSnippets(baseUrl, 'fcm', contextWindow);
  const [selected, setSelected] = useState(snippets[0]?.id ?? '');
  const snippet = snippets.find((s) => s.id === selected) ?? snippets[0];
  return (
    <Panel title="Connect an agent" className="panel-wide">
      <div className="copy-fields">
        <CopyField label="Base URL" value={baseUrl} />
        <CopyField label="Model" value="fcm" />
        <CopyField label="API key" value={PLACEHOLDER_KEY} />
      </div>
      <p className="muted small">
        Any API key works. <code>fcm</code> routes over the active set, <code>fcm:&lt;set&gt;</code> over a
        named set, <code>fcm:@provider/model</code> pins one model.
      </p>
      <div className="segmented" role="group" aria-label="Agent">
        {snippets.map((s) => (
          <button
            key={s.id}
            type="button"
            aria-pressed={s.id === snippet?.id}
            onClick={() => setSelected(s.id)}
          >
            {s.name}
          </button>
        ))}
      </div>
      {snippet && (
        <div className="snippet">
          <div className="snippet-head">
            <span className="muted small">{snippet.where}</span>
            <CopyButton text={snippet.text} label={`Copy ${snippet.name} setup`} />
          </div>
          <pre tabIndex={0} aria-label={`${snippet.name} setup`}>
            <code>{snippet.text}</code>
          </pre>
        </div>
      )}
    </Panel>
  );
}
