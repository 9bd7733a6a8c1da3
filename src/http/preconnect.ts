// The first connection to the base URL, opened before undici is loaded: the TCP handshake (a round
// trip to the server) then overlaps the ~4 ms of loading the HTTP client instead of following it.
// undici takes the socket through its `connect` option (earlyConnector), finishing TLS itself for
// https:// with its own connector; every later connection is undici's as usual.
//
// Only when no proxy variable is set (the first hop would be the proxy, not the base URL) or the base
// URL is loopback (never proxied), and only after the transport check, so nothing is opened to a
// host the client would refuse.
import { connect as netConnect, type Socket } from 'node:net';
import type { buildConnector } from 'undici';
import { assertTransportAllowed, bareHost, isLoopbackHost } from '../config/transport';

type Connector = buildConnector.connector;
type ConnectOptions = buildConnector.Options;

const CONNECT_TIMEOUT_MS = 10_000;
const PROXY_VARIABLES = ['http_proxy', 'HTTP_PROXY', 'https_proxy', 'HTTPS_PROXY'];

export interface EarlyConnection {
  /** Where the socket goes: undici's first connection to that origin takes it. */
  readonly protocol: string;
  readonly hostname: string;
  readonly port: number;
  /** The socket, once; undefined after that. */
  take(): Socket | undefined;
}

export async function preconnect(
  base: URL,
  allowHttp: boolean,
  env: Record<string, string | undefined>,
): Promise<EarlyConnection | undefined> {
  if (!isLoopbackHost(base.hostname) && PROXY_VARIABLES.some((name) => env[name])) return undefined;
  try {
    assertTransportAllowed(base, allowHttp);
  } catch {
    return undefined; // createHttpClient reports it
  }
  const hostname = bareHost(base.hostname);
  const port = Number(base.port) || (base.protocol === 'https:' ? 443 : 80);
  let socket: Socket | undefined = netConnect({ host: hostname, port });
  // Nothing waits on it until undici takes it: it must neither keep the process alive nor, failing
  // early, throw. A failure is seen again by whoever takes it (the error stays on the socket).
  socket.unref().on('error', () => {});
  // net starts the connect on the next tick; without this wait, that tick would come only after the
  // whole chain of promises that loads the client and sends the request, defeating the purpose.
  await new Promise((resolve) => setImmediate(resolve));
  return {
    protocol: base.protocol,
    hostname,
    port,
    take() {
      const s = socket;
      socket = undefined;
      return s?.ref();
    },
  };
}

/**
 * undici's `connect` option: the early socket for the first connection to its origin, `fallback`
 * (undici's own connector) for any other. An early socket that failed reports its error, which the
 * client retries like any lost connection, then with a new socket.
 */
export function earlyConnector(early: EarlyConnection, fallback: Connector): Connector {
  return (opts: ConnectOptions, callback) => {
    const port = Number(opts.port) || (opts.protocol === 'https:' ? 443 : 80);
    const mine = opts.protocol === early.protocol && bareHost(opts.hostname) === early.hostname && port === early.port;
    const socket = mine ? early.take() : undefined;
    if (!socket) return fallback(opts, callback);
    if (socket.errored || socket.destroyed) {
      const err = socket.errored ?? Object.assign(new Error('connection closed before use'), { code: 'ECONNRESET' });
      queueMicrotask(() => callback(err, null));
      return;
    }
    socket.setKeepAlive(true, 60_000).setNoDelay(true);
    // https: undici's connector runs TLS over the socket (and applies its connect timeout).
    if (opts.protocol === 'https:') return fallback({ ...opts, httpSocket: socket }, callback);
    if (!socket.connecting) {
      queueMicrotask(() => callback(null, socket));
      return;
    }
    // undici's own connect timeout (10 s), with its error code, so that the client retries it alike.
    const timer = setTimeout(() => {
      socket.destroy(Object.assign(new Error(`connect timeout (${early.hostname}:${port})`), { code: 'UND_ERR_CONNECT_TIMEOUT' }));
    }, CONNECT_TIMEOUT_MS);
    const onConnect = () => {
      clearTimeout(timer);
      socket.off('error', onError);
      callback(null, socket);
    };
    const onError = (err: Error) => {
      clearTimeout(timer);
      socket.off('connect', onConnect);
      callback(err, null);
    };
    socket.once('connect', onConnect).once('error', onError);
  };
}
