import { useEffect, useState } from 'react';
import { useProviders, useRouterState } from '../../api/queries.js';
import { Panel } from '../../components/Panel.js';
import { QueryStatus } from '../../components/QueryStatus.js';
import { dropDrafts, hasDraft } from '../../lib/drafts.js';
import { ADD_PROVIDER_DRAFT, AddProvider } from './AddProvider.js';
import { isUsable, listProviders, type ProviderFilter } from './provider-filter.js';
import { ProviderRow } from './ProviderRow.js';
import { SaveLane, SaveLaneContext } from './save-lane.js';
import { providerOfDraft } from './use-provider-settings.js';

const FILTERS: { id: ProviderFilter; label: string; none: string }[] = [
  { id: 'all', label: 'All', none: 'No providers.' },
  { id: 'usable', label: 'Usable', none: 'No provider is usable yet: add a key to one under All.' },
  { id: 'missing', label: 'Need a key', none: 'Every provider has what it needs.' },
];

/** The provider catalogue: keys, switches, tests, probes and limits; and a form to add a provider. */
export function ProvidersView() {
  const { data, isPending, error } = useProviders();
  const state = useRouterState();
  const [filter, setFilter] = useState<ProviderFilter>('all');
  const [lane] = useState(() => new SaveLane());
  // A form left with unsaved fields opens again as it was.
  const [adding] = useState(() => hasDraft(ADD_PROVIDER_DRAFT));
  const active = state.data?.sets[state.data.activeSet] ?? [];
  const providers = data?.providers ?? [];
  const usable = providers.filter(isUsable).length;
  const listed = listProviders(providers, filter);
  useEffect(() => {
    // The unsaved settings of a provider no longer configured have nothing left to be saved to.
    if (!data) return;
    const ids = new Set(data.providers.map((p) => p.id));
    dropDrafts((key) => {
      const of = providerOfDraft(key);
      return of !== null && !ids.has(of);
    });
  }, [data]);
  return (
    <Panel
      title={
        <>
          Providers{' '}
          <span className="muted small">{data ? `${usable} of ${providers.length} usable` : ''}</span>
        </>
      }
      actions={
        <div className="segmented" role="group" aria-label="Show providers">
          {FILTERS.map((f) => (
            <button key={f.id} type="button" aria-pressed={filter === f.id} onClick={() => setFilter(f.id)}>
              {f.label}
            </button>
          ))}
        </div>
      }
      className="panel-wide"
    >
      <QueryStatus isPending={isPending} error={error} what="providers" />
      <p className="muted small">
        Keys are write-only: they go to the router’s config file (mode 0600) and are never shown again, only
        their fingerprint. A provider’s keys are tried in turn when one is rate limited or refused.
      </p>
      <details className="add-provider-box" open={adding}>
        <summary>Add a provider</summary>
        <AddProvider />
      </details>
      {data && listed.length === 0 && (
        <p className="muted" role="status">
          {FILTERS.find((f) => f.id === filter)?.none}
        </p>
      )}
      <SaveLaneContext.Provider value={lane}>
        <ul className="provider-list">
          {listed.map((provider) => (
            <ProviderRow
              key={provider.id}
              provider={provider}
              revision={data?.revision ?? ''}
              activeModels={active}
              models={state.data?.models}
            />
          ))}
        </ul>
      </SaveLaneContext.Provider>
    </Panel>
  );
}
