import { LanguageModelError } from '../errors/language-model-error.ts';
import { SragError } from '../errors/srag-error.ts';

/** Status codes after which every further document would fail the same way. */
const fatalStatuses = new Set([401, 403, 404]);

/**
 * Whether an extraction error would fail every other document too (a cancel, no endpoint, an
 * unreachable endpoint, a refused key, an unknown model, a spent quota, a setting the endpoint
 * refused for the first requests alike — see `SettingRefusals` —, a store that cannot save —
 * the response cache's writes included), and a request deferred to the Batch API, which is no
 * document's failure and must not split a batch of documents. Such an error stops a whole run and marks no document;
 * any other error belongs to its own document (or batch, which is then split).
 */
export function failsEveryDocument(error: unknown): boolean {
  if (!SragError.isInstance(error)) return false;
  if (error.code === 'CANCELLED' || error.code === 'LLM_NOT_CONFIGURED' || error.code === 'QUOTA_EXCEEDED' || error.code === 'STORE_FAILED' || error.code === 'DEFERRED_TO_BATCH') return true;
  return LanguageModelError.isInstance(error) && (error.unreachable || error.setting || (!error.aboutDocument && fatalStatuses.has(error.status ?? 0)));
}
