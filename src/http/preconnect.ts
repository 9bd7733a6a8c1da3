// The first connection to the base URL, opened before the HTTP client is loaded: the TCP handshake (a round
// trip to the server) then overlaps the ~4 ms of loading the HTTP client instead of following it.
// The client's agent takes the socket for its first connection (node-dispatcher.ts), running TLS
// over it for https://; every later connection is the agent's own.
//
// Only when no proxy variable is set (the first hop would be the proxy, not the base URL) or the base
// URL is loopback (never proxied), and only after the transport check, so nothing is opened to a
// host the client would refuse.
import { connect as netConnect, type Socket } from 'node:net';
import { assertTransportAllowed, bareHost, isLoopbackHost } from '../config/transport';

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
  // Nothing waits on it until the client takes it: it must neither keep the process alive nor, failing
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
