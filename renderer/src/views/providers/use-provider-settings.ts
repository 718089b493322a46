import { useQueryClient } from '@tanstack/react-query';
import { useContext, useState } from 'react';
import type { ProviderView } from '../../../../router/api-types.js';
import { isApiError } from '../../api/client.js';
import { api } from '../../api/endpoints.js';
import { queryKeys } from '../../api/queries.js';
import { useFileForm } from '../../lib/use-file-form.js';
import { settingIssues } from './provider-settings.js';
import { SaveLane, SaveLaneContext } from './save-lane.js';

/** What a provider's settings form says when the router refused a save because the file changed on disk. */
export const SETTINGS_CHANGED_ON_DISK =
  'config.json was changed on disk since this form was filled in. It now shows the file as it is, with your unsaved changes kept: check them and save again.';

/** Where the unsaved edits of a provider's `probe` or `limits` form are kept while it is not on screen. */
export function providerDraft(part: 'probe' | 'limits', provider: string): string {
  return `${part}:${provider}`;
}

/** The provider whose settings form a draft is of, or null for another form's draft. */
export function providerOfDraft(key: string): string | null {
  const match = /^(?:probe|limits):(.*)$/s.exec(key);
  return match ? (match[1] ?? null) : null;
}

/**
 * One part of a provider's settings (`probe` or `limits`) as a form over config.json: filled from the
 * provider's view at the revision it was read at, following the file as the Settings form does
 * ({@link useFileForm}), and saved with that revision, so a save based on settings the file changed since
 * is refused and the edits kept (and kept over a switch to another view); saves from the Providers view go one at a time ({@link SaveLane}). The
 * router's refusal is read per setting in the schema's words, else as one line. `read`: the form's values as
 * the provider's view has them.
 */
export function useProviderSettings<V extends object>(
  provider: ProviderView,
  revision: string,
  part: 'probe' | 'limits',
  read: V,
) {
  const client = useQueryClient();
  const form = useFileForm<V>({
    read,
    revision,
    changedOnDisk: SETTINGS_CHANGED_ON_DISK,
    draft: providerDraft(part, provider.id),
  });
  const [ownLane] = useState(() => new SaveLane());
  const lane = useContext(SaveLaneContext) ?? ownLane;
  const [issues, setIssues] = useState<Record<string, string>>({});
  const [done, setDone] = useState(false);

  /** Saves `value` as the whole part (null: back to its default); `sent`: the values it was made from. */
  const save = async (value: Record<string, unknown> | null, sent?: V): Promise<void> => {
    setDone(false);
    const result = await form.save(async (_values, basedOn) => {
      try {
        // After the card's other form's save, if one is on its way, and at the revision that save made.
        return await lane.run(basedOn, (at) => api.saveProviderSettings(provider.id, { [part]: value }, at));
      } finally {
        // Also after a refusal: a 409 means the file changed on disk, and the form reloads from it. The
        // providers are read again (a read older than the save dropped) before the form takes the answer,
        // so the card's other form is at the saved revision too.
        await client.refetchQueries({ queryKey: queryKeys.providers });
        void client.invalidateQueries({ predicate: (query) => query.queryKey[0] !== queryKeys.providers[0] });
      }
    }, sent);
    setIssues(
      !result.ok && isApiError(result.error) ? settingIssues(result.error.issues, provider.id, part) : {},
    );
    setDone(result.ok);
  };
  /** An edit: the last save's "saved" is about other values now. */
  const setValues = (next: V): void => {
    form.setValues(next);
    setDone(false);
  };
  const general = Object.keys(issues).length === 0 ? form.failure : null;
  return { ...form, setValues, save, issues, general, done };
}
