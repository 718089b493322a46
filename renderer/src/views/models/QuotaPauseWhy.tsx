import type { ModelStateView } from '../../../../router/api-types.js';
import { useHistory } from '../../api/queries.js';
import { findPauseCause, quotaPauseWords } from '../../lib/quota-pause.js';

/** Under a quota-paused model: which 429 (or 402) paused it and who said for how long. */
export function QuotaPauseWhy({ model }: { model: ModelStateView }) {
  const { data } = useHistory();
  const pause = model.quotaPause;
  if (!pause) return null;
  const cause = findPauseCause(data?.entries ?? [], model, pause);
  return <span className="small model-pause-why">{quotaPauseWords(pause, cause, model.key)}</span>;
}
