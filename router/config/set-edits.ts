/**
 * The edits the dashboard makes to the model sets of the raw config: delete a set, rename one, choose how
 * a set orders its models, and which set is active. Pure: each returns a new config (or `raw` itself when
 * the edit changes nothing); the caller validates it before saving.
 */
import type { ConfigInput, SetOrder } from './schema.js';

type Sets = Readonly<Record<string, readonly string[]>>;
type SetOrders = Record<string, SetOrder>;

/** Whether the raw config names sets of its own: an empty `sets` resolves as a missing one (the default set). */
export function hasOwnSets(raw: ConfigInput): boolean {
  return raw.sets !== undefined && Object.keys(raw.sets).length > 0;
}

/** Materialises the effective sets into the raw config (without sets of its own, the derived default set). */
export function withSets(raw: ConfigInput, sets: Sets): Record<string, string[]> {
  return hasOwnSets(raw)
    ? { ...raw.sets }
    : Object.fromEntries(Object.entries(sets).map(([name, keys]) => [name, [...keys]]));
}

/**
 * `raw` with `ranking.order` replaced by `order`, the rest of `router` as it was. A config that had no
 * `order` and gets none keeps its `router` untouched: a save writes what was read plus the change, so no
 * empty `router`, `ranking` or `order` appears that the user never wrote.
 */
function withOrders(raw: ConfigInput, order: SetOrders): ConfigInput {
  const router = raw.router ?? {};
  if (router.ranking?.order === undefined && Object.keys(order).length === 0) return raw;
  return { ...raw, router: { ...router, ranking: { ...router.ranking, order } } };
}

function ordersOf(raw: ConfigInput): SetOrders {
  return { ...raw.router?.ranking?.order };
}

/** `raw` without set `name`, nor its order. The active set is never deleted: the caller refuses that first. */
export function withSetDeleted(raw: ConfigInput, sets: Sets, name: string): ConfigInput {
  const kept = Object.fromEntries(Object.entries(withSets(raw, sets)).filter(([set]) => set !== name));
  const order = ordersOf(raw);
  delete order[name];
  return withOrders({ ...raw, sets: kept }, order);
}

/**
 * `raw` with set `from` named `to`, in the same place among the sets, with its order; the active set's name
 * follows it.
 */
export function withSetRenamed(raw: ConfigInput, sets: Sets, from: string, to: string): ConfigInput {
  const renamed = Object.fromEntries(
    Object.entries(withSets(raw, sets)).map(([set, keys]) => [set === from ? to : set, keys]),
  );
  const order = ordersOf(raw);
  const kept = order[from];
  delete order[from];
  if (kept !== undefined) order[to] = kept;
  const activeSet = (raw.activeSet ?? 'default') === from ? to : raw.activeSet;
  return withOrders({ ...raw, sets: renamed, ...(activeSet === undefined ? {} : { activeSet }) }, order);
}

/**
 * `raw` with set `name` ordered by `order`; `priority`, the default, is written by leaving it out. The order
 * it already has returns `raw` itself: nothing to save, and the derived default set stays derived.
 */
export function withSetOrder(raw: ConfigInput, sets: Sets, name: string, order: SetOrder): ConfigInput {
  const orders = ordersOf(raw);
  if ((orders[name] ?? 'priority') === order) return raw;
  if (order === 'priority') delete orders[name];
  else orders[name] = order;
  return withOrders({ ...raw, sets: withSets(raw, sets) }, orders);
}

/**
 * `raw` with `name` the active set. The set already active returns `raw` itself: nothing to save, and the
 * derived default set stays derived.
 */
export function withActiveSet(raw: ConfigInput, sets: Sets, name: string): ConfigInput {
  if ((raw.activeSet ?? 'default') === name) return raw;
  return { ...raw, sets: withSets(raw, sets), activeSet: name };
}
