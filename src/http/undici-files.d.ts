// The types of the two files of undici that src/http/client.ts imports by path: those of the same
// exports of undici's index (test/unit/undici-parts.test.ts checks they are the same objects).
declare module 'undici/lib/dispatcher/client.js' {
  import { Client } from 'undici';
  export default Client;
}
declare module 'undici/lib/core/connect.js' {
  import { buildConnector } from 'undici';
  export default buildConnector;
}
