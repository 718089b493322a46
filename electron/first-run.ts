/** Electron-only: the one question asked on first run. Start at login stays off unless the user says yes. */
import { dialog, type BrowserWindow, type MessageBoxOptions } from 'electron';

/** Asks whether to start at login; resolves true for yes. */
export async function askStartAtLogin(parent: BrowserWindow | null, agentUrl: string): Promise<boolean> {
  const options: MessageBoxOptions = {
    type: 'question',
    buttons: ['Start at login', 'Not now'],
    defaultId: 0,
    cancelId: 1,
    title: 'fcm-router',
    message: 'Start fcm-router when you log in?',
    detail: `It waits in the tray and keeps ${agentUrl} ready for your coding agents. You can change this any time in the tray menu.`,
  };
  const { response } = await (parent
    ? dialog.showMessageBox(parent, options)
    : dialog.showMessageBox(options));
  return response === 0;
}
