import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import type { FcmDesktopBridge } from '../../../../electron/bridge-types.js';
import { Panel } from '../../components/Panel.js';

/** Desktop-only preferences, through the Electron bridge (absent in a browser tab). */
export function DesktopPrefs({ bridge }: { bridge: FcmDesktopBridge }) {
  const client = useQueryClient();
  const prefs = useQuery({
    queryKey: ['desktop-prefs'],
    queryFn: async () => ({
      startAtLogin: await bridge.getStartAtLogin(),
      notifications: await bridge.getNotificationsEnabled(),
    }),
  });
  const set = useMutation({
    mutationFn: async ({ key, on }: { key: 'startAtLogin' | 'notifications'; on: boolean }) =>
      key === 'startAtLogin' ? bridge.setStartAtLogin(on) : bridge.setNotificationsEnabled(on),
    onSettled: () => client.invalidateQueries({ queryKey: ['desktop-prefs'] }),
  });
  if (!prefs.data) return null;
  return (
    <Panel title="Desktop app">
      <label className="switch">
        <input
          type="checkbox"
          checked={prefs.data.startAtLogin}
          onChange={(e) => set.mutate({ key: 'startAtLogin', on: e.target.checked })}
        />
        <span>Start at login</span>
      </label>
      <label className="switch">
        <input
          type="checkbox"
          checked={prefs.data.notifications}
          onChange={(e) => set.mutate({ key: 'notifications', on: e.target.checked })}
        />
        <span>Notify when a model trips, a key is refused or nothing is routable</span>
      </label>
    </Panel>
  );
}
