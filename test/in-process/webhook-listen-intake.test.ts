// `webhook listen` between a request's head and the reading of its body (issue 33, item 8): the
// delivery waits for its capture's folder (openIntake, CaptureSaver.begin) before the reader's
// listeners are attached. Whatever node's server does with the request meanwhile (the whole body
// arrives, or the sender goes away), the reader must still settle: a delivery read to its end, or
// one that failed; never one left waiting (a sender never answered). Run on each node line, these
// hold node's request stream to that: it keeps the body and its end for the first reader, and a
// request closed before it is read is seen as closed.
import { createServer, request, type ClientRequest, type IncomingMessage } from 'node:http';
import type { AddressInfo } from 'node:net';
import { afterEach, describe, expect, it } from 'vitest';
import { type BodyRead, readBudgeted } from '../../src/commands/webhook/listen/body';
import { ByteBudget } from '../../src/commands/webhook/listen/budget';
import { openIntake } from '../../src/commands/webhook/listen/intake';
import { CaptureSaver } from '../../src/commands/webhook/listen/save';
import { until } from '../helpers/until';
import { tempDirsPerTest } from '../helpers/webhook-kit';

const MiB = 1024 * 1024;
const newDir = tempDirsPerTest();

/** A save folder whose captures cannot begin until the test lets them (a slow disk making the folder). */
class HeldSaver extends CaptureSaver {
  letGo: () => void = () => {};
  private readonly gate = new Promise<void>((resolve) => (this.letGo = resolve));
  override async begin(...args: Parameters<CaptureSaver['begin']>) {
    await this.gate;
    return super.begin(...args);
  }
}

const servers: ReturnType<typeof createServer>[] = [];
afterEach(() => {
  for (const s of servers.splice(0)) s.close().closeAllConnections();
});

/**
 * A server that reads each body as listen does (its capture begun first, then read within a budget);
 * `arrived` is the request as node's server hands it over, `read` the reader's outcome once settled.
 */
async function listenLike(saver: CaptureSaver) {
  const state: { arrived?: IncomingMessage; read?: BodyRead | Error } = {};
  const server = createServer(async (req, res) => {
    state.arrived = req;
    const intake = await openIntake(req, { saver, forwards: false, maxBody: 64 * MiB });
    state.read = await readBudgeted(req, new ByteBudget(256 * MiB), 64 * MiB, intake).catch((err: Error) => err);
    await intake.release();
    res.end();
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const post = (size: number): ClientRequest =>
    request(`http://127.0.0.1:${(server.address() as AddressInfo).port}/`, { method: 'POST', headers: { 'content-length': size } }).on(
      'error',
      () => {},
    );
  return { state, post };
}

describe("a delivery's body while its capture is being begun", () => {
  it.each([
    ['a small body that arrives whole', 8 * 1024],
    ['a large body held back by node until it is read', 4 * MiB],
  ])('%s is read to its end once the capture begins', async (_, size) => {
    const saver = new HeldSaver(newDir().dir);
    const { state, post } = await listenLike(saver);
    post(size).end(Buffer.alloc(size, 'x'));
    // Bytes are waiting for a reader (the small body all of them, its end included).
    await until(() => (state.arrived?.readableLength ?? 0) > 0, 'the body to arrive');
    if (size < 16 * 1024) await until(() => state.arrived!.complete, 'the whole small body to arrive');
    saver.letGo();
    await until(() => state.read !== undefined, 'the body to be read');
    expect(state.read).toEqual({ held: size });
  });

  it('a sender that goes away before its body is read: the reader fails, it does not wait', async () => {
    const saver = new HeldSaver(newDir().dir);
    const { state, post } = await listenLike(saver);
    const req = post(MiB);
    req.write(Buffer.alloc(64 * 1024, 'x'));
    await until(() => (state.arrived?.readableLength ?? 0) > 0, 'the first bytes to arrive');
    // Gone while node holds its bytes unread (the server is not reading the socket, so it may not know yet).
    req.destroy();
    await until(() => req.socket?.destroyed ?? true, 'the sender to close its connection');
    saver.letGo();
    await until(() => state.read !== undefined, 'the reader to settle');
    // node's 'aborted' (the reader's 'error'), or its own message when the request was already closed.
    expect(state.read).toBeInstanceOf(Error);
  });
});
