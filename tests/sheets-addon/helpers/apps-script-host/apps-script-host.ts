import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { MessageChannel, Worker } from 'node:worker_threads';
import { readFileSync } from 'node:fs';
import {
  CacheServiceStandIn, CacheStore, HtmlServiceStandIn, LockServiceStandIn, LockState, LogStandIn, PropertiesServiceStandIn, PropertyStore, ScriptAppStandIn,
} from './service-stand-ins.ts';
import { SpreadsheetAppStandIn, SpreadsheetData } from './spreadsheet-stand-in.ts';
import { createUrlFetchWorld, ExecutionKilled, UrlFetchAppStandIn, type UrlFetchWorld } from './url-fetch-stand-in.ts';

const workerFile = fileURLToPath(new URL('./execution-worker.mjs', import.meta.url));
export const defaultDistDirectory = fileURLToPath(new URL('../../../../sheets-addon/dist/', import.meta.url));

export type UserName = 'owner' | 'editor';

export interface RunOptions {
  /** Who runs it; a custom function always sees the owner's user properties. */
  user?: UserName;
  customFunction?: boolean;
}

export interface ExecutionRecord {
  id: string;
  functionName: string;
  user: UserName;
  customFunction: boolean;
  outcome: 'running' | 'returned' | 'threw' | 'killed';
  error?: string;
  startedAt: number;
  finishedAt?: number;
}

interface Slot {
  worker: Worker;
  flag: Int32Array;
  replyPort: MessagePort;
  busy: boolean;
}

type MessagePort = import('node:worker_threads').MessagePort;

/**
 * Google's side of Apps Script, for tests and the benchmark: the spreadsheet, property stores,
 * caches and locks live here in the main thread; each execution runs the built Code.js in a worker
 * (see execution-worker.mjs) and reaches these services by synchronous RPC. Several executions
 * run at once, as concurrent google.script.run calls do.
 */
export class AppsScriptHost {
  readonly spreadsheet = new SpreadsheetData();
  readonly userProperties: Record<UserName, PropertyStore> = { owner: new PropertyStore(), editor: new PropertyStore() };
  readonly documentProperties = new PropertyStore();
  readonly scriptProperties = new PropertyStore();
  /** Script time: `offsetMilliseconds` ahead of real time, running `speed` times as fast. */
  readonly clock = { offsetMilliseconds: 0, speed: 1 };
  readonly documentCache = new CacheStore(() => this.now());
  readonly scriptCache = new CacheStore(() => this.now());
  readonly userCaches: Record<UserName, CacheStore> = { owner: new CacheStore(() => this.now()), editor: new CacheStore(() => this.now()) };
  readonly locks = { document: new LockState(), script: new LockState(), user: new LockState() };
  readonly fetch: UrlFetchWorld = createUrlFetchWorld();
  readonly logLines: string[] = [];
  readonly executions: ExecutionRecord[] = [];
  private readonly slots: Slot[] = [];
  private readonly waiting: Array<() => void> = [];
  private code: string;
  private counter = 0;
  private closed = false;

  constructor(readonly distDirectory = defaultDistDirectory, private readonly maxExecutions = 10) {
    this.code = readFileSync(path.join(distDirectory, 'Code.js'), 'utf8');
    const scopes = (JSON.parse(readFileSync(path.join(distDirectory, 'appsscript.json'), 'utf8')) as { oauthScopes?: string[] }).oauthScopes ?? [];
    const drive = scopes.map((scope) => scope.replace('https://www.googleapis.com/auth/', ''));
    this.fetch.driveScope = drive.includes('drive') || drive.includes('drive.readonly') ? 'all' : drive.includes('drive.file') ? 'picked' : 'none';
  }

  now(): number {
    return Date.now() + this.clock.offsetMilliseconds;
  }

  /** Run a top-level function of Code.js as one execution; resolves with what it returned. */
  async run<T = unknown>(functionName: string, args: unknown[] = [], options: RunOptions = {}): Promise<T> {
    const slot = await this.takeSlot();
    const record: ExecutionRecord = {
      id: `execution-${(this.counter += 1)}`,
      functionName,
      user: options.user ?? 'owner',
      customFunction: options.customFunction ?? false,
      outcome: 'running',
      startedAt: Date.now(),
    };
    this.executions.push(record);
    const handles = this.servicesFor(record);
    try {
      return (await this.execute(slot, record, handles, args)) as T;
    } finally {
      record.finishedAt = Date.now();
      for (const lock of Object.values(this.locks)) lock.release(record.id);
      this.releaseSlot(slot);
    }
  }

  /** A custom function as Sheets calls it: no authorization, the owner's settings, read-only sheets. */
  runCustomFunction<T = unknown>(functionName: string, args: unknown[], user: UserName = 'owner'): Promise<T> {
    return this.run<T>(functionName, args, { user, customFunction: true });
  }

  async close(): Promise<void> {
    this.closed = true;
    await Promise.all(this.slots.map((slot) => slot.worker.terminate()));
    this.slots.length = 0;
  }

  private servicesFor(record: ExecutionRecord): Map<string, object> {
    const user: UserName = record.customFunction ? 'owner' : record.user;
    const view = { readOnly: record.customFunction };
    return new Map<string, object>([
      ['SpreadsheetApp', new SpreadsheetAppStandIn(this.spreadsheet, view)],
      ['PropertiesService', new PropertiesServiceStandIn({ user: this.userProperties[user], document: this.documentProperties, script: this.scriptProperties })],
      ['CacheService', new CacheServiceStandIn({ user: this.userCaches[user], document: this.documentCache, script: this.scriptCache })],
      ['LockService', new LockServiceStandIn(this.locks, record.id, this.clock.speed)],
      ['UrlFetchApp', new UrlFetchAppStandIn(this.fetch, record.id)],
      ['HtmlService', new HtmlServiceStandIn(this.distDirectory)],
      ['ScriptApp', new ScriptAppStandIn()],
      ['log', new LogStandIn(this.logLines)],
    ]);
  }

  private execute(slot: Slot, record: ExecutionRecord, handles: Map<string, object>, args: unknown[]): Promise<unknown> {
    let nextHandle = 0;
    const encode = (value: unknown): unknown => {
      if (value === undefined) return { $undefined: true };
      if (value === null || typeof value !== 'object') return value;
      if (value instanceof Date) return { $date: value.getTime() };
      if (Array.isArray(value)) return value.map(encode);
      if (Object.getPrototypeOf(value) === Object.prototype) return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, encode(item)]));
      const handle = `h${(nextHandle += 1)}`;
      handles.set(handle, value);
      return { $handle: handle, $kind: value.constructor.name };
    };
    const decode = (value: unknown): unknown => {
      if (value === null || typeof value !== 'object') return value;
      if (Array.isArray(value)) return value.map(decode);
      const tagged = value as Record<string, unknown>;
      if ('$date' in tagged) return new Date(tagged.$date as number);
      if ('$undefined' in tagged) return undefined;
      if ('$handle' in tagged) return handles.get(String(tagged.$handle));
      return Object.fromEntries(Object.entries(tagged).map(([key, item]) => [key, decode(item)]));
    };
    const services = Object.fromEntries([...handles.keys()].filter((name) => name !== 'log').map((name) => [name, { $handle: name, $kind: name }]));

    return new Promise((resolve, reject) => {
      const reply = (message: unknown) => {
        slot.replyPort.postMessage(message);
        Atomics.store(slot.flag, 0, 1);
        Atomics.notify(slot.flag, 0);
      };
      const cleanUp = () => {
        slot.worker.off('message', onMessage);
        slot.worker.off('error', onError);
      };
      const onError = (error: Error) => {
        cleanUp();
        record.outcome = 'threw';
        record.error = error.message;
        reject(error);
      };
      const onMessage = async (message: { type: string; request?: { handle: string; method: string; args: unknown[] }; outcome?: string; message?: string; name?: string }) => {
        if (message.type === 'rpc') {
          const { handle, method, args: rawArgs } = message.request!;
          const target = handles.get(handle) as Record<string, unknown> | undefined;
          try {
            const member = target?.[method];
            if (typeof member !== 'function') throw new Error(`TypeError: ${handle}.${method} is not a function (the stand-in does not implement it)`);
            const value = await (member as (...parameters: unknown[]) => unknown).apply(target, decode(rawArgs) as unknown[]);
            reply({ value: encode(value) });
          } catch (error) {
            if (error instanceof ExecutionKilled) {
              cleanUp();
              record.outcome = 'killed';
              record.error = error.message;
              await this.replaceWorker(slot);
              reject(new Error(error.message));
              return;
            }
            reply({ error: { message: (error as Error).message, name: (error as Error).name } });
          }
          return;
        }
        cleanUp();
        if (message.type === 'result') {
          const parsed = JSON.parse(message.outcome!) as { value: unknown; isPromise: boolean };
          if (parsed.isPromise) {
            record.outcome = 'threw';
            record.error = 'returned a Promise';
            reject(new Error(`${record.functionName} returned a Promise; Apps Script would hand Sheets an empty object`));
            return;
          }
          record.outcome = 'returned';
          resolve(decode(parsed.value));
        } else {
          record.outcome = 'threw';
          record.error = message.message;
          reject(Object.assign(new Error(message.message), { name: message.name ?? 'Error' }));
        }
      };
      slot.worker.on('message', onMessage);
      slot.worker.on('error', onError);
      slot.worker.postMessage({
        type: 'run',
        code: this.code,
        functionName: record.functionName,
        args: encode(args),
        services,
        clockOffset: this.clock.offsetMilliseconds,
        clockSpeed: this.clock.speed,
      });
    });
  }

  private async takeSlot(): Promise<Slot> {
    for (;;) {
      if (this.closed) throw new Error('the Apps Script host is closed');
      const free = this.slots.find((slot) => !slot.busy);
      if (free) {
        free.busy = true;
        return free;
      }
      if (this.slots.length < this.maxExecutions) {
        const slot = this.createSlot();
        slot.busy = true;
        this.slots.push(slot);
        return slot;
      }
      await new Promise<void>((resolve) => this.waiting.push(resolve));
    }
  }

  private releaseSlot(slot: Slot): void {
    slot.busy = false;
    this.waiting.shift()?.();
  }

  private createSlot(): Slot {
    const flagBuffer = new SharedArrayBuffer(4);
    const channel = new MessageChannel();
    const worker = new Worker(workerFile, { workerData: { flagBuffer, replyPort: channel.port2 }, transferList: [channel.port2] });
    worker.unref();
    return { worker, flag: new Int32Array(flagBuffer), replyPort: channel.port1, busy: false };
  }

  /** A killed execution's worker is gone; its slot gets a fresh one. */
  private async replaceWorker(slot: Slot): Promise<void> {
    await slot.worker.terminate();
    slot.replyPort.close();
    const fresh = this.createSlot();
    slot.worker = fresh.worker;
    slot.flag = fresh.flag;
    slot.replyPort = fresh.replyPort;
  }
}
