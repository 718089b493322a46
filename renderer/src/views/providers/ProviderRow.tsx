import { useMutation, useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ModelStateView, ProviderView } from '../../../../router/api-types.js';
import { api } from '../../api/endpoints.js';
import { KeyStatusBadge } from '../../components/KeyStatusBadge.js';
import { errorText } from '../../components/QueryStatus.js';
import { useAskedValue } from '../../lib/use-asked-value.js';
import { withProviderEnabled } from './provider-config.js';
import { KeyForm } from './KeyForm.js';
import { KeyStates } from './KeyStates.js';
import { KeyTest, testTargetOf } from './KeyTest.js';
import { LimitsForm } from './LimitsForm.js';
import { ProbeSettings } from './ProbeSettings.js';
import { countOf } from '../../lib/format.js';
import { hasDraft } from '../../lib/drafts.js';
import { providerDraft } from './use-provider-settings.js';

/**
 * The enabled switch: shows the requested state at once, and keeps showing it until the router's view of
 * the provider says the same (or the save failed): a list reloaded before the save was read never flips it
 * back for a moment.
 */
function EnabledSwitch({ provider }: { provider: ProviderView }) {
  const client = useQueryClient();
  const toggle = useMutation({
    // Read the config fresh so the toggle never writes back a stale copy of other settings.
    mutationFn: async (enabled: boolean) => {
      const current = await api.config();
      return api.saveConfig(withProviderEnabled(current.config, provider.id, enabled), current.revision);
    },
    onSettled: () => client.invalidateQueries(),
  });
  const enabled = useAskedValue(provider.enabled, toggle.isPending);
  return (
    <label className="switch">
      <input
        type="checkbox"
        checked={enabled.shown}
        aria-label={`${provider.name} enabled`}
        onChange={(e) => {
          enabled.ask(e.target.checked);
          toggle.mutate(e.target.checked, { onError: enabled.forget });
        }}
        disabled={toggle.isPending}
      />
      <span>enabled</span>
      {toggle.error && <span className="field-error">{errorText(toggle.error)}</span>}
    </label>
  );
}

/**
 * One provider: key status, enabled switch, its keys with their budgets and a test of each, Add key,
 * probes, limits. A provider that needs no key and has none is tested as a whole.
 */
export function ProviderRow({
  provider,
  revision,
  activeModels,
  models = [],
}: {
  provider: ProviderView;
  /** The config revision the provider's view was read at: its settings forms save against it. */
  revision: string;
  activeModels: readonly string[];
  /** The router's view of models, to tell whether a test is a model's trial. */
  models?: readonly ModelStateView[];
}) {
  // Settings left with unsaved edits open again as they were.
  const target = testTargetOf(provider, activeModels, models);
  const [settingsOpen] = useState(
    () => hasDraft(providerDraft('probe', provider.id)) || hasDraft(providerDraft('limits', provider.id)),
  );
  return (
    <li className="provider-row" aria-label={provider.name}>
      <div className="provider-name">
        <strong>{provider.name}</strong>
        <code className="muted small">{provider.id}</code>
        {provider.custom && <span className="tag">custom</span>}
        {provider.unresolvable && <span className="tag tag-warn">URL incomplete</span>}
      </div>
      <div className="provider-status">
        <KeyStatusBadge status={provider.keyStatus} source={provider.keySource} custom={provider.custom} />
        <span className="muted small mono">{countOf(provider.models.length, 'model')}</span>
        {provider.probe.enabled && <span className="tag">probes on</span>}
        {provider.signupUrl && (
          <a href={provider.signupUrl} target="_blank" rel="noopener noreferrer" className="small">
            get a key ↗
          </a>
        )}
      </div>
      <EnabledSwitch provider={provider} />
      <KeyForm provider={provider} />
      {provider.keys.length === 0 && provider.keyStatus !== 'missing' && (
        <KeyTest provider={provider} target={target} className="provider-test" />
      )}
      <KeyStates provider={provider} target={target} />
      <details className="provider-more" open={settingsOpen}>
        <summary className="small">Probes and limits</summary>
        <ProbeSettings provider={provider} revision={revision} />
        <LimitsForm provider={provider} revision={revision} />
      </details>
    </li>
  );
}
