import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium, type Browser } from 'playwright-core';
import { internalTokenSecret } from '@ticketing/config';
import { DeliveryLinks } from '../apps/ticketing/src/delivery/delivery-links';
import { CHROMIUM_PATH } from '../tools/system/chromium';
import { repoRoot } from '../tools/system/services';
import { as, createAccount } from './support/api';
import { onSale, sale } from './support/on-sale';

const screenshots = path.join(repoRoot, '.data/e2e/screenshots');

/** Delivery links opened in a real headless Chromium (Debian's, driven by playwright-core), through the gateway. */
describe('delivery links in a real browser', () => {
  let browser: Browser;

  beforeAll(async () => {
    mkdirSync(screenshots, { recursive: true });
    browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'] });
  });

  afterAll(async () => {
    await browser?.close();
  });

  it('shows the event, the holder and the QR code of the current code; a screenshot is kept', async () => {
    const api = as((await createAccount()).secret_key);
    const { eventId, tierId } = await onSale(api);
    const issued = await api.post(`/v1/events/${eventId}/tickets`, sale(tierId, { quantity: 1, payment: { type: 'external', reference: 'o', amount: 2500 }, customer: { email: 'ann@example.com', name: 'Ann <Lee>' } }));
    const ticket = issued.body.tickets[0];
    const link = await api.post(`/v1/tickets/${ticket.id}/delivery_link`, {});
    expect(link.status).toBe(200);
    expect(link.body).toMatchObject({ object: 'ticket_delivery_link', ticket_id: ticket.id, url: expect.stringMatching(/\/d\/[\w-]+\.[\w-]+\.[\w-]+$/) });
    expect(Date.parse(link.body.expires_at) - Date.now()).toBeGreaterThan(6 * 24 * 3600 * 1000);

    const page = await browser.newPage();
    const response = await page.goto(link.body.url);
    expect(response?.status()).toBe(200);
    expect(await page.locator('h1').textContent()).toBe('On-sale night');
    expect(await page.locator('[data-holder]').textContent()).toBe('Ann <Lee>');
    expect(await page.locator('[data-qr] svg').count()).toBe(1);
    expect(await page.locator('[data-code]').textContent()).toBe(ticket.code);
    expect(await page.locator('[data-test-mode]').textContent()).toBe('Test mode: this is not a real ticket.');
    await page.screenshot({ path: path.join(screenshots, 'delivery-link.png'), fullPage: true });

    // A transfer ends the link: Ann's page no longer shows the ticket; a link made for Bo does.
    const moved = await api.post(`/v1/tickets/${ticket.id}/transfer`, { customer: { email: 'bo@example.com', name: 'Bo Chen' } });
    expect((await page.reload())?.status()).toBe(410);
    expect(await page.locator('[data-refused]').getAttribute('data-refused')).toBe('transferred');
    expect(await page.locator('[data-qr], [data-code], [data-holder]').count()).toBe(0);
    await page.goto((await api.post(`/v1/tickets/${ticket.id}/delivery_link`, {})).body.url);
    expect(await page.locator('[data-holder]').textContent()).toBe('Bo Chen');
    expect(await page.locator('[data-code]').textContent()).toBe(moved.body.code);
    await page.close();
  });

  it('shows a clear page, never a ticket, for a forged, expired, transferred or retired ticket’s link', async () => {
    const account = await createAccount();
    const api = as(account.secret_key);
    const { eventId, tierId } = await onSale(api);
    const ticket = (await api.post(`/v1/events/${eventId}/tickets`, sale(tierId, { quantity: 1, payment: { type: 'external', reference: 'o', amount: 2500 } }))).body.tickets[0];
    const { url } = (await api.post(`/v1/tickets/${ticket.id}/delivery_link`, { ttl_seconds: 60 })).body;
    const page = await browser.newPage();

    // A link for this very ticket, signed as ticketing signs them (the system runs with the
    // development secret), whose time has passed: the shortest link lives a minute.
    const origin = url.split('/d/')[0];
    const expired = new DeliveryLinks(internalTokenSecret.parse(undefined), origin).create(
      { ticketId: ticket.id, tenant: { accountId: account.account_id, mode: 'test' }, holderId: ticket.customer },
      new Date(Date.now() - 1_000),
    );
    expect((await page.goto(expired))?.status()).toBe(410);
    expect(await page.locator('[data-refused]').getAttribute('data-refused')).toBe('expired');
    expect(await page.locator('[data-qr], [data-code], [data-holder]').count()).toBe(0);
    await page.screenshot({ path: path.join(screenshots, 'delivery-link-expired.png') });

    const [head, payload, signature] = url.split('/d/')[1].split('.');
    const forged = `${origin}/d/${head}.${payload}.${signature.slice(0, -3)}abc`;
    expect((await page.goto(forged))?.status()).toBe(404);
    expect(await page.locator('[data-refused]').getAttribute('data-refused')).toBe('invalid');
    expect(await page.locator('[data-qr], [data-code], [data-holder]').count()).toBe(0);
    await page.screenshot({ path: path.join(screenshots, 'delivery-link-forged.png') });

    await api.post(`/v1/tickets/${ticket.id}/revoke`, { reason: 'Fraud' });
    expect((await page.goto(url))?.status()).toBe(200);
    expect(await page.locator('[data-status]').getAttribute('data-status')).toBe('revoked');
    expect(await page.locator('[data-qr], [data-code]').count()).toBe(0);

    const refused = await api.post(`/v1/tickets/${ticket.id}/delivery_link`, { ttl_seconds: 59 });
    expect(refused.body.error).toMatchObject({ code: 'parameter_invalid', param: 'ttl_seconds' });
    await page.close();
  });
});
