// What the bundle takes from undici instead of its index: the index loads every part of undici at
// once (fetch, WebSocket, caches, mocks, interceptors: ~1 MB, ~25 ms of start-up), and src/ uses
// only Client, EnvHttpProxyAgent, buildConnector and the Dispatcher API. scripts/build.mjs points
// `undici` here; tests and types use the real index.
'use strict';

const Dispatcher = require('undici/lib/dispatcher/dispatcher');
const llhttp = require('./llhttp.cjs');

// Of the Dispatcher API undici's index adds, src/ uses dispatch() (src/http/body.ts) and the proxy
// agent connect() to tunnel: request(), stream(), pipeline() and their body streams are not loaded,
// and connect() only when a proxy asks for it.
Dispatcher.prototype.connect = function connect(...args) {
  return require('undici/lib/api/api-connect').apply(this, args);
};

/**
 * undici's dispatcher `Base`, but a request made while the parser is still being compiled in the
 * background (llhttp.cjs) is dispatched once it is ready: waiting a moment for it costs less than
 * compiling it again on the main thread. By then the first connection is usually open already.
 */
function waitingForParser(Base) {
  return class extends Base {
    dispatch(opts, handler) {
      const pending = llhttp.pending();
      if (!pending || llhttp.take()) return super.dispatch(opts, handler);
      pending.then(() => super.dispatch(opts, handler));
      return true;
    }
  };
}

module.exports.Dispatcher = Dispatcher;
module.exports.Client = waitingForParser(require('undici/lib/dispatcher/client'));
// Its agents, pools and proxy code are loaded only by a run that goes through a proxy
// (src/http/client.ts): a direct run talks to one origin through one Client.
let EnvHttpProxyAgent;
Object.defineProperty(module.exports, 'EnvHttpProxyAgent', {
  enumerable: true,
  get: () => (EnvHttpProxyAgent ??= waitingForParser(require('undici/lib/dispatcher/env-http-proxy-agent'))),
});
module.exports.buildConnector = require('undici/lib/core/connect');
