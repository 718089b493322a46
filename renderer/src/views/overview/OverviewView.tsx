import { useCutOffSince } from '../../live/connection-context.js';
import { ActivityPanel } from './ActivityPanel.js';
import { AgentSetupPanel } from './AgentSetupPanel.js';
import { ModelsGlance } from './ModelsGlance.js';
import { SetupPanel } from './SetupPanel.js';
import { StatusPanel } from './StatusPanel.js';
import { TodayPanel } from './TodayPanel.js';

/**
 * Router status, today's numbers, the last hour, how to connect an agent and setting one up in one step.
 * While the router does not answer, the figures are dimmed: they are from before.
 */
export function OverviewView() {
  const cutOff = useCutOffSince() !== null;
  return (
    <div className={cutOff ? 'grid grid-stale' : 'grid'}>
      <StatusPanel />
      <TodayPanel />
      <ModelsGlance />
      <ActivityPanel />
      <SetupPanel />
      <AgentSetupPanel />
    </div>
  );
}
