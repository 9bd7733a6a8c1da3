// node:http or node:https, required rather than imported: an ES import of a node module builds its
// namespace from every export, and node 22+'s http exports WebSocket and friends as getters that load
// node's bundled undici (tls, http2, zlib, worker_threads, the CA certificates: ~20 ms of a start).
import { createRequire } from 'node:module';

export function nodeHttp(tls: boolean): typeof import('node:http') {
  return createRequire(import.meta.url)(tls ? 'node:https' : 'node:http') as typeof import('node:http');
}
