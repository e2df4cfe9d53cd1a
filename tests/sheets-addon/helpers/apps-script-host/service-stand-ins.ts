import { readFileSync } from 'node:fs';

/** PropertiesService limits, in bytes of UTF-8 as Google counts them: 9 KB per value, 500 KB per store. */
const propertyValueLimit = 9 * 1024;
const propertyStoreLimit = 500 * 1024;
/** CacheService limits: 100 KB per value (bytes), 250-character keys, six hours, 1,000 items per cache. */
const cacheValueLimit = 100 * 1024;
const cacheKeyLimit = 250;
const cacheMaximumSeconds = 21_600;
const cacheItemLimit = 1_000;

function bytes(text: string): number {
  return Buffer.byteLength(text, 'utf8');
}

export class PropertyStore {
  readonly values = new Map<string, string>();
  writes = 0;

  getProperty(key: string): string | null {
    return this.values.get(String(key)) ?? null;
  }

  getProperties(): Record<string, string> {
    return Object.fromEntries(this.values);
  }

  getKeys(): string[] {
    return [...this.values.keys()];
  }

  setProperty(key: string, value: string): PropertyStore {
    return this.setProperties({ [key]: value });
  }

  setProperties(properties: Record<string, string>): PropertyStore {
    const next = new Map(this.values);
    for (const [key, value] of Object.entries(properties)) {
      const text = String(value);
      if (bytes(text) > propertyValueLimit) throw new Error('Exception: Argument too large: value');
      next.set(String(key), text);
    }
    const size = [...next].reduce((total, [key, value]) => total + bytes(key) + bytes(value), 0);
    if (size > propertyStoreLimit) throw new Error('Exception: You have exceeded the property storage quota. Please remove some properties and try again.');
    for (const [key, value] of next) this.values.set(key, value);
    this.writes += 1;
    return this;
  }

  deleteProperty(key: string): PropertyStore {
    this.values.delete(String(key));
    return this;
  }

  deleteAllProperties(): PropertyStore {
    this.values.clear();
    return this;
  }
}

export class PropertiesServiceStandIn {
  constructor(private readonly stores: { user: PropertyStore; document: PropertyStore; script: PropertyStore }) {}

  getUserProperties(): PropertyStore {
    return this.stores.user;
  }

  getDocumentProperties(): PropertyStore {
    return this.stores.document;
  }

  getScriptProperties(): PropertyStore {
    return this.stores.script;
  }
}

/**
 * One cache as CacheService keeps it. When it holds `capacity` items, putting a new one first
 * evicts the oldest tenth by insertion, whatever was read since: measured on Apps Script, FIFO.
 */
export class CacheStore {
  readonly entries = new Map<string, { value: string; expiresAt: number }>();
  /** Items dropped to make room so far. */
  evictions = 0;

  constructor(private readonly now: () => number, public capacity = cacheItemLimit) {}

  get(key: string): string | null {
    const entry = this.entries.get(String(key));
    if (!entry) return null;
    if (entry.expiresAt <= this.now()) {
      this.entries.delete(String(key));
      return null;
    }
    return entry.value;
  }

  getAll(keys: string[]): Record<string, string> {
    return Object.fromEntries(keys.map((key) => [key, this.get(key)]).filter(([, value]) => value !== null));
  }

  put(key: string, value: string, seconds = 600): void {
    if (String(key).length > cacheKeyLimit) throw new Error('Exception: Argument too large: key');
    if (bytes(String(value)) > cacheValueLimit) throw new Error('Exception: Argument too large: value');
    const lifetime = Math.min(cacheMaximumSeconds, Math.max(1, Number(seconds)));
    this.entries.delete(String(key));
    if (this.entries.size >= this.capacity) {
      for (const oldest of [...this.entries.keys()].slice(0, Math.max(1, Math.ceil(this.capacity / 10)))) this.entries.delete(oldest);
      this.evictions += 1;
    }
    this.entries.set(String(key), { value: String(value), expiresAt: this.now() + lifetime * 1000 });
  }

  putAll(values: Record<string, string>, seconds?: number): void {
    for (const [key, value] of Object.entries(values)) this.put(key, value, seconds);
  }

  remove(key: string): void {
    this.entries.delete(String(key));
  }

  removeAll(keys: string[]): void {
    for (const key of keys) this.remove(key);
  }
}

export class CacheServiceStandIn {
  constructor(private readonly caches: { user: CacheStore; document: CacheStore; script: CacheStore }) {}

  getUserCache(): CacheStore {
    return this.caches.user;
  }

  getDocumentCache(): CacheStore {
    return this.caches.document;
  }

  getScriptCache(): CacheStore {
    return this.caches.script;
  }
}

/**
 * One lock shared by every execution of a document; a waiter gets it in arrival order. A test may
 * hold it itself (`acquire('someone else', 0)`) to play an execution that keeps it too long.
 */
export class LockState {
  holder: string | undefined;
  private waiters: Array<{ execution: string; grant: () => void }> = [];
  acquisitions = 0;
  /** Waits that ended without the lock. */
  timeouts = 0;

  acquire(execution: string, timeoutMilliseconds: number): Promise<boolean> {
    if (this.holder === undefined || this.holder === execution) {
      this.holder = execution;
      this.acquisitions += 1;
      return Promise.resolve(true);
    }
    return new Promise((resolve) => {
      const waiter = {
        execution,
        grant: () => {
          clearTimeout(timer);
          this.holder = execution;
          this.acquisitions += 1;
          resolve(true);
        },
      };
      const timer = setTimeout(() => {
        this.waiters = this.waiters.filter((candidate) => candidate !== waiter);
        this.timeouts += 1;
        resolve(false);
      }, timeoutMilliseconds);
      this.waiters.push(waiter);
    });
  }

  release(execution: string): void {
    if (this.holder !== execution) return;
    this.holder = undefined;
    const next = this.waiters.shift();
    next?.grant();
  }
}

/** A lock as a script holds it; waits are in script time (`speed` times faster than real time). */
export class LockStandIn {
  private held = false;

  constructor(private readonly state: LockState, private readonly execution: string, private readonly speed: number) {}

  async waitLock(timeoutMilliseconds: number): Promise<void> {
    if (!(await this.state.acquire(this.execution, Number(timeoutMilliseconds) / this.speed))) {
      throw new Error('Exception: Lock timeout: another process was holding the lock for too long.');
    }
    this.held = true;
  }

  async tryLock(timeoutMilliseconds: number): Promise<boolean> {
    this.held = await this.state.acquire(this.execution, Number(timeoutMilliseconds) / this.speed);
    return this.held;
  }

  releaseLock(): void {
    this.state.release(this.execution);
    this.held = false;
  }

  hasLock(): boolean {
    return this.state.holder === this.execution;
  }
}

export class LockServiceStandIn {
  constructor(private readonly locks: { document: LockState; script: LockState; user: LockState }, private readonly execution: string, private readonly speed = 1) {}

  getDocumentLock(): LockStandIn {
    return new LockStandIn(this.locks.document, this.execution, this.speed);
  }

  getScriptLock(): LockStandIn {
    return new LockStandIn(this.locks.script, this.execution, this.speed);
  }

  getUserLock(): LockStandIn {
    return new LockStandIn(this.locks.user, this.execution, this.speed);
  }
}

export class HtmlOutputStandIn {
  title = '';
  width: number | undefined;
  height: number | undefined;

  constructor(readonly html: string) {}

  setTitle(title: string): HtmlOutputStandIn {
    this.title = String(title);
    return this;
  }

  setWidth(width: number): HtmlOutputStandIn {
    this.width = Number(width);
    return this;
  }

  setHeight(height: number): HtmlOutputStandIn {
    this.height = Number(height);
    return this;
  }

  getContent(): string {
    return this.html;
  }

  getTitle(): string {
    return this.title;
  }
}

export class HtmlServiceStandIn {
  constructor(private readonly distDirectory: string) {}

  createHtmlOutputFromFile(name: string): HtmlOutputStandIn {
    return new HtmlOutputStandIn(readFileSync(`${this.distDirectory}/${name}.html`, 'utf8'));
  }

  createHtmlOutput(html: string): HtmlOutputStandIn {
    return new HtmlOutputStandIn(String(html));
  }
}

export class ScriptAppStandIn {
  getOAuthToken(): string {
    return 'test-oauth-token';
  }
}

export class LogStandIn {
  constructor(private readonly lines: string[]) {}

  write(level: string, text: string): void {
    this.lines.push(`${level}: ${text}`);
  }
}
