import { useQueryClient } from '@tanstack/react-query';
import type { ConfigInput } from '../../../../router/api-types.js';
import { api } from '../../api/endpoints.js';
import { useConfig, useProviders } from '../../api/queries.js';
import { Panel } from '../../components/Panel.js';
import { QueryStatus } from '../../components/QueryStatus.js';
import { desktopBridge } from '../../desktop/bridge.js';
import { DesktopPrefs } from './DesktopPrefs.js';
import { RawConfig } from './RawConfig.js';
import { SettingsForm } from './SettingsForm.js';

/** The failover config editor, the effective config, and desktop preferences when in the app. */
export function SettingsView() {
  const client = useQueryClient();
  const { data, isPending, error } = useConfig();
  const providers = useProviders();
  const models = providers.data?.providers.flatMap((p) => p.models.map((m) => m.key));
  const bridge = desktopBridge();
  const save = async (config: ConfigInput, revision: string) => {
    try {
      return await api.saveConfig(config, revision);
    } finally {
      // Also after a refusal: a 409 means the file changed on disk, and the form reloads from it.
      void client.invalidateQueries();
    }
  };
  return (
    <div className="grid">
      <Panel title="Failover and breaker" className="panel-wide">
        <QueryStatus isPending={isPending} error={error} what="the config" />
        {data && <SettingsForm config={data} models={models} onSave={save} />}
      </Panel>
      {data && (
        <Panel title="Config file" className="panel-wide">
          <RawConfig config={data} />
        </Panel>
      )}
      {bridge && <DesktopPrefs bridge={bridge} />}
    </div>
  );
}
