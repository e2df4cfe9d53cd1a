import { LanguageModelError } from '../errors/language-model-error.ts';
import { SragError } from '../errors/srag-error.ts';

/** Refusals of one kind, before any answer, that make a setting error rather than two documents' failures. */
const agreeingRefusals = 2;

/**
 * Tells a setting the endpoint refuses from a request it refuses. A request error (a 4xx other
 * than 408, 409 and 429, not about what the request carried — see
 * `LanguageModelError.aboutDocument`) that two requests get alike before the endpoint answered any
 * is a setting's: the wrong deployment, a parameter the model does not take, a key the provider
 * answers with 400. One alone may be one document's odd request (a run of many documents must not
 * stop for it each time), so it is the document's until a second agrees. Once the endpoint
 * answered, nothing is judged a setting any more.
 */
export class SettingRefusals {
  private answeredOnce = false;
  private readonly seen = new Map<string, number>();
  private refusal: LanguageModelError | undefined;

  get answered(): boolean {
    return this.answeredOnce;
  }

  recordAnswer(): void {
    this.answeredOnce = true;
  }

  /** Throws the setting error once one was judged: the request is not sent. */
  throwIfRefused(): void {
    if (this.refusal) throw this.refusal;
  }

  /** The error a failed call ends with: `error` itself, or the setting error it completes. */
  judge(error: unknown): unknown {
    if (!LanguageModelError.isInstance(error)) return error;
    // A reply that was read and found wanting (a refusal, a cut reply) is an answer all the same.
    if (error.status !== undefined && error.status >= 200 && error.status < 300) this.answeredOnce = true;
    if (this.answeredOnce || !maySignalSetting(error)) return error;
    const signature = refusalSignature(error);
    const count = (this.seen.get(signature) ?? 0) + 1;
    this.seen.set(signature, count);
    if (count < agreeingRefusals) return error;
    this.refusal ??= new LanguageModelError({
      message: `the endpoint refused the first requests alike, answering none: ${error.message}`,
      status: error.status,
      retryable: false,
      setting: true,
      hint: error.hint ?? 'change the setting the endpoint names and run again: no document was marked failed',
      reason: error.reason,
      cause: error,
    });
    return this.refusal;
  }
}

/** A request error that says nothing about one request's content: a setting's, if others agree. */
export function maySignalSetting(error: unknown): boolean {
  if (!LanguageModelError.isInstance(error) || error.aboutDocument || error.setting || error.status === undefined) return false;
  return error.status >= 400 && error.status < 500 && error.status !== 408 && error.status !== 409 && error.status !== 429;
}

/** The status and message with numbers and ids blurred: two requests refused for one reason read alike. */
function refusalSignature(error: SragError & { status?: number }): string {
  return `${error.status} ${error.message.replace(/[0-9a-f]{8,}|\d+/gi, '#')}`;
}
