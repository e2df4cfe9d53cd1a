/**
 * One Apps Script "execution slot": a worker thread that runs the built Code.js in a fresh vm
 * context per call, as Apps Script evaluates a project anew for every execution. The context has
 * ES2020's built-ins and nothing newer (see es2020-realm.mjs). Every service
 * call (SpreadsheetApp, UrlFetchApp, ...) is a synchronous RPC to the main thread, which plays
 * Google's side: the worker blocks on Atomics.wait until the answer is there, exactly as a script
 * blocks on UrlFetchApp. Killing an execution (its six minutes are up) terminates the worker.
 *
 * Plain JavaScript on purpose: the worker loads no TypeScript and shares nothing with the host but
 * messages, so nothing of Node leaks into the context the bundle sees.
 */
import { parentPort, receiveMessageOnPort, workerData } from 'node:worker_threads';
import vm from 'node:vm';
import { es2020RealmSource } from './es2020-realm.mjs';

const { flagBuffer, replyPort } = workerData;
const flag = new Int32Array(flagBuffer);
const pause = new Int32Array(new SharedArrayBuffer(4));
let compiled;
let compiledSource;

function rpc(request) {
  Atomics.store(flag, 0, 0);
  parentPort.postMessage({ type: 'rpc', request });
  Atomics.wait(flag, 0, 0);
  // The flag is set after the reply was posted; give the port a moment if the message lags.
  let received = receiveMessageOnPort(replyPort);
  for (let attempt = 0; !received && attempt < 5_000; attempt += 1) {
    Atomics.wait(pause, 0, 0, 1);
    received = receiveMessageOnPort(replyPort);
  }
  if (!received) throw new Error('apps-script host: no RPC reply');
  return received.message;
}

/** Runs inside the context: proxies for every service, Utilities, console and Logger. */
const bootstrap = String.raw`
(function (host) {
  'use strict';
  var global = this;
  function decode(value) {
    if (value === null || typeof value !== 'object') return value;
    if (Array.isArray(value)) return value.map(decode);
    if ('$date' in value) return new Date(value.$date);
    if ('$undefined' in value) return undefined;
    if ('$handle' in value) return proxy(value.$handle, value.$kind);
    var out = {};
    for (var key in value) out[key] = decode(value[key]);
    return out;
  }
  function encode(value) {
    if (value === undefined) return { $undefined: true };
    if (value === null || typeof value !== 'object') return typeof value === 'function' ? null : value;
    if (Object.prototype.toString.call(value) === '[object Date]') return { $date: value.getTime() };
    if (value.__standInHandle !== undefined) return { $handle: value.__standInHandle };
    if (Array.isArray(value)) return value.map(encode);
    var out = {};
    for (var key in value) out[key] = encode(value[key]);
    return out;
  }
  function call(handle, method, args) {
    var reply = JSON.parse(host.rpc(JSON.stringify({ handle: handle, method: method, args: encode(args) })));
    if (reply.error) {
      var error = new Error(reply.error.message);
      error.name = reply.error.name || 'Exception';
      throw error;
    }
    return decode(reply.value);
  }
  function proxy(handle, kind) {
    return new Proxy({}, {
      get: function (_, property) {
        if (property === '__standInHandle') return handle;
        if (typeof property === 'symbol' || property === 'then' || property === 'toJSON') return undefined;
        if (property === 'toString') return function () { return kind; };
        return function () { return call(handle, property, Array.prototype.slice.call(arguments)); };
      },
    });
  }
  var services = decode(JSON.parse(host.services));
  for (var name in services) global[name] = services[name];

  // Script time: shifted by the host's offset and, for time-limit tests, running speed times faster.
  var offset = host.clockOffset;
  var speed = host.clockSpeed;
  var realNow = Date.now;
  var start = realNow();
  Date.now = function () { return start + (realNow() - start) * speed + offset; };

  function log(level) {
    return function () {
      var text = Array.prototype.map.call(arguments, function (part) {
        if (typeof part === 'string') return part;
        try { return JSON.stringify(part); } catch (error) { return String(part); }
      }).join(' ');
      call('log', 'write', [level, text]);
    };
  }
  global.console = { log: log('log'), info: log('info'), warn: log('warn'), error: log('error'), debug: log('debug') };
  global.Logger = { log: log('Logger'), clear: function () {}, getLog: function () { return ''; } };

  function pad(number, width) { var text = String(number); while (text.length < width) text = '0' + text; return text; }
  function partsIn(date, timeZone) {
    var parts = {};
    new Intl.DateTimeFormat('en-US', { timeZone: timeZone, hourCycle: 'h23', year: 'numeric', month: 'numeric', day: 'numeric', hour: 'numeric', minute: 'numeric', second: 'numeric' })
      .formatToParts(date).forEach(function (part) { parts[part.type] = part.value; });
    return parts;
  }
  global.Utilities = {
    sleep: function (milliseconds) { host.sleep(Number(milliseconds) / speed); },
    formatDate: function (date, timeZone, pattern) {
      var parts = partsIn(date, timeZone);
      return pattern
        .replace(/yyyy/g, parts.year).replace(/MM/g, pad(parts.month, 2)).replace(/dd/g, pad(parts.day, 2))
        .replace(/HH/g, pad(parts.hour, 2)).replace(/mm/g, pad(parts.minute, 2)).replace(/ss/g, pad(parts.second, 2));
    },
    getUuid: function () {
      return 'xxxxxxxx-xxxx-4xxx-yxxx-xxxxxxxxxxxx'.replace(/[xy]/g, function (c) {
        var r = Math.random() * 16 | 0; return (c === 'x' ? r : (r & 0x3 | 0x8)).toString(16);
      });
    },
  };
})
`;

parentPort.on('message', (message) => {
  if (message.type !== 'run') return;
  try {
    if (compiledSource !== message.code) {
      compiled = new vm.Script(message.code, { filename: 'Code.js' });
      compiledSource = message.code;
    }
    const context = vm.createContext({});
    // No built-in newer than ES2020: the add-on must run on whatever V8 Apps Script has.
    vm.runInContext(es2020RealmSource, context, { filename: 'es2020-realm.js' });
    const sleepCell = new Int32Array(new SharedArrayBuffer(4));
    const host = {
      rpc: (json) => JSON.stringify(rpc(JSON.parse(json))),
      sleep: (milliseconds) => { if (milliseconds > 0) Atomics.wait(sleepCell, 0, 0, milliseconds); },
      services: JSON.stringify(message.services),
      clockOffset: message.clockOffset,
      clockSpeed: message.clockSpeed,
    };
    vm.runInContext(bootstrap, context, { filename: 'bootstrap.js' }).call(context, host);
    compiled.runInContext(context);
    context.__arguments = JSON.stringify(message.args);
    const outcome = vm.runInContext(`(function () {
      var args = JSON.parse(__arguments).map(function revive(value) {
        if (value === null || typeof value !== 'object') return value;
        if (Array.isArray(value)) return value.map(revive);
        if ('$date' in value) return new Date(value.$date);
        if ('$undefined' in value) return undefined;
        var out = {}; for (var key in value) out[key] = revive(value[key]); return out;
      });
      var result = ${message.functionName}.apply(null, args);
      return JSON.stringify({ value: result === undefined ? { $undefined: true } : result, isPromise: result !== null && typeof result === 'object' && typeof result.then === 'function' }, function (key, value) {
        if (this[key] instanceof Date) return { $date: this[key].getTime() };
        return value;
      });
    })()`, context, { filename: 'invoke.js' });
    parentPort.postMessage({ type: 'result', outcome });
  } catch (error) {
    parentPort.postMessage({ type: 'error', name: error && error.name, message: error && error.message !== undefined ? error.message : String(error), stack: error && error.stack });
  }
});
