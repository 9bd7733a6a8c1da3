// src/http/client.ts imports undici's Client and connector from their own files rather than from the
// index (which loads all of undici at once): they must be the very objects the index exports, so that
// an upgrade of undici that moves them fails here, not in a user's run.
import * as undici from 'undici';
import Client from 'undici/lib/dispatcher/client.js';
import buildConnector from 'undici/lib/core/connect.js';
import { describe, expect, it } from 'vitest';

describe("undici's files that the client imports", () => {
  it("are the Client and buildConnector of undici's index", () => {
    expect(Client).toBe(undici.Client);
    expect(buildConnector).toBe(undici.buildConnector);
  });
});
