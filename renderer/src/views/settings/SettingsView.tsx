import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import type { ConfigInput } from '../../../../router/api-types.js';
import { api } from '../../api/endpoints.js';
import { queryKeys, useConfig, useProviders } from '../../api/queries.js';
import { Panel } from '../../components/Panel.js';
import { QueryStatus } from '../../components/QueryStatus.js';
import { desktopBridge } from '../../desktop/bridge.js';
import { ConfigJsonEditor } from './ConfigJsonEditor.js';
import { DesktopPrefs } from './DesktopPrefs.js';
import { RawConfig } from './RawConfig.js';
import { SettingsForm } from './SettingsForm.js';

/** The failover editor, the whole config as JSON, the effective config, and desktop preferences in the app. */
export function SettingsView() {
  const client = useQueryClient();
  const { data, isPending, error } = useConfig();
  const providers = useProviders().data?.providers;
  const bridge = desktopBridge();
  // The revision the last save from this page wrote, and which editor made it: the other one says so.
  const [ownSave, setOwnSave] = useState<{ revision: string; by: string } | null>(null);
  const savedBy = ownSave !== null && ownSave.revision === data?.revision ? ownSave.by : null;
  const saveFrom = (by: string) => async (config: ConfigInput, revision: string) => {
    try {
      const saved = await api.saveConfig(config, revision);
      if (saved.revision !== undefined) setOwnSave({ revision: saved.revision, by });
      return saved;
    } finally {
      // Also after a refusal: a 409 means the file changed on disk, and the editors reload from it. The
      // config is read again (a read older than the save dropped) before the editor takes the answer.
      await client.refetchQueries({ queryKey: queryKeys.config });
      void client.invalidateQueries({ predicate: (query) => query.queryKey[0] !== queryKeys.config[0] });
    }
  };
  return (
    <div className="grid">
      <Panel title="Failover and breaker" className="panel-wide">
        <QueryStatus isPending={isPending} error={error} what="the config" />
        {data && (
          <SettingsForm
            config={data}
            providers={providers}
            onSave={saveFrom('the Settings form')}
            savedBy={savedBy}
          />
        )}
      </Panel>
      {data && (
        <Panel title="Config file (JSON)" className="panel-wide">
          <ConfigJsonEditor
            config={data}
            onSave={saveFrom('the JSON editor')}
            check={api.checkConfig}
            savedBy={savedBy}
          />
          <RawConfig config={data} />
        </Panel>
      )}
      {bridge && <DesktopPrefs bridge={bridge} />}
    </div>
  );
}
