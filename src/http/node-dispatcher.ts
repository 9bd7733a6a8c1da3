// The API client's transport for a direct connection: node's own http and https modules behind the
// part of undici's Dispatcher interface the client uses (dispatch() with a handler, and close()).
// undici's Client loads its HTTP/2 client with it (node's http2, tls, crypto and zlib, and the CA
// certificates behind them) and compiles its WebAssembly parser in every run that sends a request:
// most of what a short command cost (docs/performance.md). Node's parser is built in. Through a proxy,
// and in tests that inject undici's MockAgent, undici's own dispatchers are used (client.ts).
import type { Agent, ClientRequest, IncomingMessage } from 'node:http';
import type { Socket } from 'node:net';
import type { Dispatcher } from 'undici';
import type { EarlyConnection } from './preconnect';

/** What requestWhole (body.ts) gives dispatch() and what it listens to. */
type Options = Pick<Dispatcher.DispatchOptions, 'path' | 'method' | 'headers'>;
type Handler = Pick<Dispatcher.DispatchHandler, 'onConnect' | 'onHeaders' | 'onData' | 'onComplete' | 'onError'>;

export interface NodeDispatcherOptions {
  maxHeaderSize: number;
  /** A connection to the origin opened while the program loaded (preconnect.ts): the first one used. */
  early?: EarlyConnection;
}

type AgentWithConnect = Agent & { createConnection(options: object, callback?: unknown): Socket };

export class NodeDispatcher {
  private agent: Agent | undefined;

  constructor(
    private readonly origin: URL,
    private readonly opts: NodeDispatcherOptions,
  ) {}

  dispatch(options: Options, handler: Handler): boolean {
    const tls = this.origin.protocol === 'https:';
    // Taken when first used, as the rest of the program takes node's modules: https loads tls.
    const mod = process.getBuiltinModule(tls ? 'node:https' : 'node:http') as typeof import('node:http');
    const req: ClientRequest = mod.request({
      protocol: this.origin.protocol,
      hostname: this.origin.hostname.replace(/^\[|\]$/g, ''),
      port: this.origin.port || (tls ? 443 : 80),
      path: options.path,
      method: options.method,
      headers: options.headers as Record<string, string>,
      maxHeaderSize: this.opts.maxHeaderSize,
      agent: (this.agent ??= this.makeAgent(mod, tls)),
    });
    let done = false;
    const fail = (err: Error) => {
      if (done) return;
      done = true;
      handler.onError?.(err);
    };
    handler.onConnect?.((err?: Error) => {
      const reason = err ?? new Error('aborted');
      req.destroy(reason);
      fail(reason);
    });
    req.on('error', fail);
    req.on('response', (res: IncomingMessage) => {
      res.on('error', fail);
      // Strings, not undici's buffers: requestWhole reads either (node has decoded them as latin1).
      const raw = res.rawHeaders as unknown as Buffer[];
      if (handler.onHeaders?.(res.statusCode ?? 0, raw, () => res.resume(), res.statusMessage ?? '') === false) {
        res.destroy();
        return;
      }
      res.on('data', (chunk: Buffer) => {
        if (handler.onData?.(chunk) === false) res.destroy();
      });
      res.on('end', () => {
        if (done) return;
        done = true;
        handler.onComplete?.(null);
      });
    });
    req.end();
    return true;
  }

  async close(): Promise<void> {
    this.agent?.destroy();
  }

  /**
   * One connection, kept alive between requests (a run's requests are sequential); its first socket is
   * the early one when there is one (TLS runs over it for https://).
   */
  private makeAgent(mod: typeof import('node:http'), tls: boolean): Agent {
    const agent = new mod.Agent({ keepAlive: true, maxSockets: 1 }) as AgentWithConnect;
    const early = this.opts.early;
    if (early) {
      const own = agent.createConnection.bind(agent);
      agent.createConnection = (options, callback) => {
        const socket = early.take();
        // One that failed before its first use (its error is on it): a fresh connection instead.
        if (!socket || socket.destroyed || socket.errored) return own(options, callback);
        socket.setKeepAlive(true, 60_000).setNoDelay(true);
        return tls ? own({ ...options, socket }, callback) : socket;
      };
    }
    return agent;
  }
}
