import { Agent, request } from 'node:http';
import type { AddressInfo } from 'node:net';
import express from 'express';
import { closeGracefully, listen } from './http-server';

/** A GET through `agent`, answering the status and the Connection header. */
function get(port: number, path: string, agent: Agent): Promise<{ status: number; connection: string | undefined }> {
  return new Promise((resolve, reject) => {
    const sent = request({ port, path, agent }, (res) => {
      res.resume();
      res.on('end', () => resolve({ status: res.statusCode!, connection: res.headers.connection }));
    });
    sent.on('error', reject);
    sent.end();
  });
}

describe('closeGracefully', () => {
  it('answers requests that arrive on a kept-alive connection while closing, closing that connection, and stops once they end rather than at its timeout', async () => {
    let slowStarted!: () => void;
    const started = new Promise<void>((resolve) => (slowStarted = resolve));
    let finishSlow!: () => void;
    const app = express();
    app.get('/slow', (_req, res) => {
      finishSlow = () => res.json({ ok: true });
      slowStarted();
    });
    app.get('/fast', (_req, res) => res.json({ ok: true }));
    const server = await listen(app, 0);
    const { port } = server.address() as AddressInfo;
    // One kept-alive connection, never idle: the second request waits on it for the first.
    const agent = new Agent({ keepAlive: true, maxSockets: 1 });
    try {
      const slow = get(port, '/slow', agent);
      const fast = get(port, '/fast', agent);
      await started;
      // A timeout far past the test's own: the close must end because the requests did.
      const closing = closeGracefully(server, 60_000);
      finishSlow();

      expect(await slow).toMatchObject({ status: 200 });
      expect(await fast).toEqual({ status: 200, connection: 'close' });
      await closing;
      expect(server.listening).toBe(false);
    } finally {
      agent.destroy();
      server.closeAllConnections();
    }
  });
});
