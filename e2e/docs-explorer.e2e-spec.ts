import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_PATH } from '../tools/system/chromium';
import { repoRoot } from '../tools/system/services';
import { gatewayUrl } from './support/system';

/** The API explorer at /v1/docs in a real headless Chromium: its files load from the gateway itself, offline. */
describe('the API explorer in a real browser', () => {
  it('renders every tag’s operations at /v1/docs, with no request leaving the gateway and none failing', async () => {
    const browser = await chromium.launch({ executablePath: CHROMIUM_PATH, args: ['--no-sandbox'] });
    try {
      const page = await browser.newPage();
      const failed: string[] = [];
      const elsewhere: string[] = [];
      page.on('requestfailed', (request) => failed.push(request.url()));
      page.on('response', (response) => {
        if (response.status() >= 400) failed.push(`${response.status()} ${response.url()}`);
      });
      page.on('request', (request) => {
        if (!request.url().startsWith(gatewayUrl) && !request.url().startsWith('data:')) elsewhere.push(request.url());
      });

      const response = await page.goto(`${gatewayUrl}/v1/docs`);
      expect(response?.status()).toBe(200);
      await page.locator('.opblock').first().waitFor();
      expect(await page.locator('.opblock-tag').count()).toBeGreaterThanOrEqual(10);
      expect(await page.locator('.opblock', { hasText: '/v1/events/{id}/tickets' }).count()).toBeGreaterThan(0);
      expect({ failed, elsewhere }).toEqual({ failed: [], elsewhere: [] });
      const screenshots = path.join(repoRoot, '.data/e2e/screenshots');
      mkdirSync(screenshots, { recursive: true });
      await page.screenshot({ path: path.join(screenshots, 'api-explorer.png') });
    } finally {
      await browser.close();
    }
  });
});
