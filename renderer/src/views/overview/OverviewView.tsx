import { ActivityPanel } from './ActivityPanel.js';
import { ModelsGlance } from './ModelsGlance.js';
import { SetupPanel } from './SetupPanel.js';
import { StatusPanel } from './StatusPanel.js';
import { TodayPanel } from './TodayPanel.js';

/** Router status, today's numbers, the last hour, and how to connect an agent. */
export function OverviewView() {
  return (
    <div className="grid">
      <StatusPanel />
      <TodayPanel />
      <ModelsGlance />
      <ActivityPanel />
      <SetupPanel />
    </div>
  );
}
