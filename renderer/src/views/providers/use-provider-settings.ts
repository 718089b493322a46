import { useMutation, useQueryClient } from '@tanstack/react-query';
import { isApiError } from '../../api/client.js';
import { api } from '../../api/endpoints.js';
import { errorText } from '../../components/QueryStatus.js';
import { settingIssues } from './provider-settings.js';

/**
 * Saves one part of a provider's settings (`probe` or `limits`; null puts it back to its default) and
 * reads the router's refusal: per setting in the schema's words, else one line.
 */
export function useProviderSettings(providerId: string, part: 'probe' | 'limits') {
  const client = useQueryClient();
  const save = useMutation({
    mutationFn: (value: Record<string, unknown> | null) =>
      api.saveProviderSettings(providerId, { [part]: value }),
    onSettled: () => client.invalidateQueries(),
  });
  const issues = isApiError(save.error) ? settingIssues(save.error.issues, providerId, part) : {};
  const general = save.error && Object.keys(issues).length === 0 ? errorText(save.error) : null;
  return { save, issues, general };
}
