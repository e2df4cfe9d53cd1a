/** What a script passes to UrlFetchApp.fetch / fetchAll (the fields the add-on uses). */
export interface UrlFetchParameters {
  url?: string;
  method?: string;
  headers?: Record<string, string>;
  contentType?: string;
  payload?: string;
  muteHttpExceptions?: boolean;
}

export class HttpResponseStandIn {
  constructor(private readonly status: number, private readonly headers: Record<string, string>, private readonly body: string) {}

  getResponseCode(): number {
    return this.status;
  }

  getContentText(): string {
    return this.body;
  }

  getHeaders(): Record<string, string> {
    return this.headers;
  }

  getAllHeaders(): Record<string, string> {
    return this.headers;
  }
}

/** Raised by the stand-in when the execution must end now, as Apps Script ends it at six minutes. */
export class ExecutionKilled extends Error {
  constructor() {
    super('Exceeded maximum execution time');
    this.name = 'Exception';
  }
}

export interface UrlFetchWorld {
  /** Every request an execution sent, in order. */
  sent: Array<{ execution: string; url: string; body: string }>;
  /**
   * Counts of sent requests, ascending: the first fetch that would take the number of requests
   * sent past the first of them ends its execution instead (nothing of it is sent), as Apps Script
   * ends one at six minutes; then the next threshold applies.
   */
  killAfter: number[];
  /** Executions ended so far by `killAfter`. */
  kills: number;
  /** Files the fake Drive API serves (`https://www.googleapis.com/drive/v3/files/<id>`). */
  driveFiles: Map<string, { name: string; mimeType: string; content: string }>;
  /**
   * What the add-on's Drive scope lets it open, from its manifest: every file the user can open
   * (drive.readonly), only the files picked for it in the Google Picker (drive.file), or none.
   */
  driveScope: 'all' | 'picked' | 'none';
  /** Files picked in the Google Picker (Add files from Drive): under drive.file, the only ones served. */
  pickedFiles: Set<string>;
  timeoutMilliseconds: number;
  /** Set when a daily quota should run out: every further fetch throws the quota error. */
  quotaExhausted: boolean;
  /**
   * Public endpoints served by local ones: a request whose URL starts with a key goes to the value
   * instead, so the settings can name a real provider (for the screenshots) while the stand-in answers.
   */
  routes: Map<string, string>;
  /** How many further fetch calls hit Apps Script's short-term rate limit ("too many times in a short time") and throw. */
  throttledCalls: number;
  /** Called as each request goes out, e.g. for a test to act at a given point of a batch. */
  onSend?: (request: { execution: string; url: string; body: string }) => void;
}

export function createUrlFetchWorld(): UrlFetchWorld {
  return { sent: [], killAfter: [], kills: 0, driveFiles: new Map(), driveScope: 'picked', pickedFiles: new Set(), timeoutMilliseconds: 20_000, quotaExhausted: false, routes: new Map(), throttledCalls: 0 };
}

/**
 * UrlFetchApp making real HTTP requests (the loopback LLM stand-in) from the main thread while
 * the script's worker blocks. `fetchAll` sends its requests concurrently, as Apps Script does.
 */
export class UrlFetchAppStandIn {
  constructor(private readonly world: UrlFetchWorld, private readonly execution: string) {}

  async fetch(url: string, parameters: UrlFetchParameters = {}): Promise<HttpResponseStandIn> {
    this.beforeSending(1);
    return this.send({ ...parameters, url });
  }

  async fetchAll(requests: UrlFetchParameters[]): Promise<HttpResponseStandIn[]> {
    this.beforeSending(requests.length);
    const outcomes = await Promise.allSettled(requests.map((request) => this.send(request)));
    const failure = outcomes.find((outcome) => outcome.status === 'rejected');
    if (failure) throw (failure as PromiseRejectedResult).reason;
    return outcomes.map((outcome) => (outcome as PromiseFulfilledResult<HttpResponseStandIn>).value);
  }

  private beforeSending(count: number): void {
    if (this.world.quotaExhausted) throw new Error('Exception: Service invoked too many times for one day: urlfetch.');
    if (this.world.throttledCalls > 0) {
      this.world.throttledCalls -= 1;
      throw new Error('Exception: Service invoked too many times in a short time: urlfetch. Try Utilities.sleep(1000) between calls.');
    }
    const threshold = this.world.killAfter[0];
    if (threshold !== undefined && this.world.sent.length + count > threshold) {
      this.world.killAfter.shift();
      this.world.kills += 1;
      throw new ExecutionKilled();
    }
  }

  private async send(parameters: UrlFetchParameters): Promise<HttpResponseStandIn> {
    const url = String(parameters.url);
    const sent = { execution: this.execution, url, body: parameters.payload ?? '' };
    this.world.sent.push(sent);
    this.world.onSend?.(sent);
    const drive = /^https:\/\/www\.googleapis\.com\/drive\/v3\/files\/([^/?]+)(\/export)?(\?.*)?$/.exec(url);
    let response: HttpResponseStandIn;
    if (drive) {
      response = this.serveDrive(decodeURIComponent(drive[1]!), Boolean(drive[2]), drive[3] ?? '', parameters.headers ?? {});
    } else {
      let reply: Response;
      try {
        const headers: Record<string, string> = { ...(parameters.headers ?? {}) };
        if (parameters.contentType) headers['content-type'] = parameters.contentType;
        const route = [...this.world.routes].find(([publicUrl]) => url.startsWith(publicUrl));
        reply = await fetch(route ? route[1] + url.slice(route[0].length) : url, {
          method: (parameters.method ?? 'get').toUpperCase(),
          headers,
          body: parameters.payload,
          signal: AbortSignal.timeout(this.world.timeoutMilliseconds),
        });
      } catch (error) {
        const reason = (error as Error).name === 'TimeoutError' ? 'Timeout' : 'Address unavailable';
        throw new Error(`Exception: ${reason}: ${url}`);
      }
      const headers: Record<string, string> = {};
      reply.headers.forEach((value, name) => {
        headers[name] = value;
      });
      response = new HttpResponseStandIn(reply.status, headers, await reply.text());
    }
    if (!parameters.muteHttpExceptions && response.getResponseCode() >= 400) {
      throw new Error(`Exception: Request failed for ${url} returned code ${response.getResponseCode()}. Truncated server response: ${response.getContentText().slice(0, 100)}`);
    }
    return response;
  }

  private serveDrive(fileId: string, exported: boolean, query: string, headers: Record<string, string>): HttpResponseStandIn {
    if (headers.Authorization !== 'Bearer test-oauth-token') return new HttpResponseStandIn(401, {}, '{"error":{"message":"no token"}}');
    if (this.world.driveScope === 'none') return new HttpResponseStandIn(403, {}, '{"error":{"message":"Request had insufficient authentication scopes."}}');
    const file = this.world.driveFiles.get(fileId);
    // Under drive.file a file nobody picked for the add-on is, to it, a file that does not exist.
    if (!file || (this.world.driveScope === 'picked' && !this.world.pickedFiles.has(fileId))) return new HttpResponseStandIn(404, {}, `{"error":{"message":"File not found: ${fileId}."}}`);
    if (query.includes('fields=')) return new HttpResponseStandIn(200, { 'content-type': 'application/json' }, JSON.stringify({ name: file.name, mimeType: file.mimeType }));
    if (exported || query.includes('alt=media')) return new HttpResponseStandIn(200, {}, file.content);
    return new HttpResponseStandIn(400, {}, '{"error":{"message":"bad request"}}');
  }
}
