import type { Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { createLogger } from '@ticketing/observability';
import { startSandboxPageServer } from '../src/sandbox/sandbox-page.server';
import { intentCalls, startPaymentsHarness, tenantClaims, type PaymentsHarness } from './support/payments-harness';

/** The sandbox's authentication page, as a buyer's browser uses it (real PostgreSQL). */
describe('the sandbox authentication page', () => {
  let harness: PaymentsHarness;
  let calls: ReturnType<typeof intentCalls>;
  let pages: Server;
  let base: string;

  beforeAll(async () => {
    harness = await startPaymentsHarness();
    calls = intentCalls(harness);
    pages = await startSandboxPageServer(0, { prisma: harness.prisma, completeAuthentication: harness.core.completeAuthentication, logger: createLogger('payments-test', 'silent') });
    base = `http://127.0.0.1:${(pages.address() as AddressInfo).port}`;
  });

  afterAll(async () => {
    await new Promise((resolve) => pages.close(resolve));
    await harness.stop();
  });

  /** An intent awaiting its buyer's authentication, and the page's path. */
  const awaitingAuthentication = async (amount = 9000) => {
    const claims = tenantClaims();
    const intent = await calls.create(claims, { amount, payment_method: 'pm_card_authenticationRequired' });
    const asked = await calls.confirm(claims, intent.id);
    return { claims, intent, path: new URL(asked.next_action!.redirect_url).pathname };
  };
  const answer = (path: string, outcome: string) =>
    fetch(`${base}${path}`, { method: 'POST', headers: { 'content-type': 'application/x-www-form-urlencoded' }, body: new URLSearchParams({ outcome }).toString() });

  it('shows the amount and lets the buyer complete the authentication, which makes the intent succeed', async () => {
    const { claims, intent, path } = await awaitingAuthentication(9000);
    const page = await fetch(`${base}${path}`);
    expect(page.status).toBe(200);
    expect(page.headers.get('content-type')).toContain('text/html');
    const html = await page.text();
    expect(html).toContain('€90.00');
    expect(html).toContain(`action="${path}"`);

    const done = await answer(path, 'authenticated');
    expect(done.status).toBe(200);
    expect(await done.text()).toContain('Payment authenticated');
    expect(await calls.get(claims, intent.id)).toMatchObject({ status: 'succeeded' });
    // Decided: the page says so, and a second answer changes nothing.
    expect((await fetch(`${base}${path}`)).status).toBe(409);
    expect((await answer(path, 'failed')).status).toBe(409);
    expect(await calls.get(claims, intent.id)).toMatchObject({ status: 'succeeded' });
  });

  it('fails the charge when the buyer fails the authentication', async () => {
    const { claims, intent, path } = await awaitingAuthentication();
    expect(await (await answer(path, 'failed')).text()).toContain('Authentication failed');
    expect(await calls.get(claims, intent.id)).toMatchObject({ status: 'requires_payment_method', last_payment_error: { code: 'authentication_failed' } });
  });

  it('refuses an unknown charge, another answer, and other methods, changing nothing', async () => {
    const { claims, intent, path } = await awaitingAuthentication();
    expect((await fetch(`${base}/sandbox/authenticate/ch_01JD3WJ6K8M0P2R4T6V8X0Z2B4`)).status).toBe(404);
    expect((await fetch(`${base}/sandbox/authenticate/not-a-charge`)).status).toBe(404);
    expect((await answer(path, 'maybe')).status).toBe(400);
    const deleted = await fetch(`${base}${path}`, { method: 'DELETE' });
    expect({ status: deleted.status, allow: deleted.headers.get('allow') }).toEqual({ status: 405, allow: 'GET, HEAD, POST' });
    expect(await calls.get(claims, intent.id)).toMatchObject({ status: 'requires_action' });
  });
});
