import type { Browser, Page } from 'puppeteer-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { WEBHOOK_EXAMPLE } from '../../contract/examples.ts';
import { OPERATION_DESCRIPTIONS } from '../../contract/operation-documents.ts';
import { renderOpenApiDocument } from '../../contract/openapi-document.ts';
import { PLAN_LIMITS } from '../../functions/domain/plans.ts';
import { startLocalApp, type LocalApp } from '../../local/local-app.ts';
import { testAppStore } from '../support/local-store.ts';
import { DEMO_INVENTORY } from '../../contract/demo-inventory.ts';
import { apiRoutes } from '../../functions/routes.ts';
import { launchChromium } from './chromium.ts';

/**
 * The reference as a reader gets it: headless Chromium loads /v1/docs from the local server
 * and the page must render every operation from nothing but its own bytes.
 */

/** What the callbacks run in the page use of its DOM (the project compiles without the DOM library). */
type Rendered = { innerText: string };
type InPage = { document: { getElementById(id: string): unknown } };
type LinkingAnswer = { querySelector(selector: string): { getAttribute(name: string): string | null } | null };

let app: LocalApp;
let browser: Browser;
let page: Page;
const consoleMessages: string[] = [];
const failedRequests: string[] = [];
const requestedUrls: string[] = [];
let status: number | undefined;

beforeAll(async () => {
  app = await startLocalApp({ ...testAppStore(), seed: DEMO_INVENTORY, devApiKey: 'BrowserTestKey000000000000000001', devPlan: 'pro' });
  browser = await launchChromium();
  page = await browser.newPage();
  await page.setViewport({ width: 1440, height: 1000 });
  page.on('console', (message) => {
    if (['error', 'warn', 'assert'].includes(message.type())) consoleMessages.push(`${message.type()}: ${message.text()}`);
  });
  page.on('pageerror', (error) => consoleMessages.push(`page error: ${error instanceof Error ? error.message : String(error)}`));
  page.on('requestfailed', (request) => failedRequests.push(`${request.url()}: ${request.failure()?.errorText}`));
  page.on('request', (request) => requestedUrls.push(request.url()));
  const response = await page.goto(`${app.baseUrl}/docs`, { waitUntil: 'networkidle0', timeout: 30_000 });
  status = response?.status();
}, 90_000);

afterAll(async () => {
  await browser?.close();
  await app?.close();
});

const publishedDocument = () =>
  JSON.parse(renderOpenApiDocument({ serverUrl: app.baseUrl })) as {
    paths: Record<
      string,
      Record<
        string,
        { operationId: string; responses: Record<string, { content?: Record<string, { examples?: Record<string, unknown> }> }> }
      >
    >;
  };

describe('GET /v1/docs in Chromium', () => {
  it('loads with 200, without a console error or warning and without a failed request', () => {
    expect(status).toBe(200);
    expect(consoleMessages).toEqual([]);
    expect(failedRequests).toEqual([]);
  });

  it('requests nothing but the page itself: no script, font, style or image from any host', () => {
    expect(requestedUrls).toEqual([`${app.baseUrl}/docs`]);
  });

  it('forbids, in its own policy, anything but its inline style', async () => {
    expect(await page.$eval('meta[http-equiv="Content-Security-Policy"]', (meta) => meta.getAttribute('content'))).toMatch(
      /^default-src 'none'; style-src 'unsafe-inline';/,
    );
    expect(await page.$$eval('script, link[rel="stylesheet"], img[src^="http"], iframe', (elements) => elements.length)).toBe(0);
  });

  it.each(apiRoutes.map((route) => [route.operationId, route] as const))(
    'shows %s with its method, path, curl line and example answer',
    async (operationId, route) => {
      const section = await page.$(`#operation-${operationId}`);
      expect(section).not.toBeNull();
      expect(await section!.isVisible()).toBe(true);
      const endpoint = await section!.$eval('.endpoint', (element) => [
        element.querySelector('.method')!.textContent,
        element.querySelector('.path')!.textContent,
      ]);
      expect(endpoint).toEqual([route.method, route.resource]);
      const text = await section!.evaluate((element) => (element as unknown as Rendered).innerText);
      const { example } = OPERATION_DESCRIPTIONS[operationId];
      expect(text).toContain(`${app.baseUrl}${example.path}`);
      expect(text).toContain('curl -i');
      const { answer } = example;
      if ('body' in answer) expect(text).toContain(`"${Object.keys(Array.isArray(answer.body) ? answer.body[0]! : answer.body)[0]}"`);
    },
  );

  it('lists every status of every operation, and every error code each one can carry', async () => {
    const operations = Object.values(publishedDocument().paths).flatMap((item) => Object.values(item));
    // Each answer's text, and where it links when it says that another operation answers the same (naming its codes).
    const answersOf = async (operationId: string) =>
      (
        await page.$$eval(`#operation-${operationId} .responses > li`, (items) =>
          items.map((item) => ({
            text: (item as unknown as Rendered).innerText,
            href: (item as unknown as LinkingAnswer).querySelector('a')?.getAttribute('href') ?? undefined,
          })),
        )
      ).map(({ text, href }) => ({ text, link: /^\d{3}\s+As \w+ answers it(: [\w, ]+)?\.$/.test(text.trim()) ? href : undefined }));
    for (const operation of operations) {
      const responses = Object.entries(operation.responses);
      const answers = await answersOf(operation.operationId);
      expect(answers, operation.operationId).toHaveLength(responses.length);
      for (const [index, [statusCode, response]] of responses.entries()) {
        const answer = answers[index]!;
        expect(answer.text, `${operation.operationId} ${statusCode}`).toContain(statusCode);
        // An error answer shown whole before is linked instead (it keeps /docs within API Gateway's
        // mapping-template limit): the link leads to the same answer, shown whole, every code in it.
        let shown = answer;
        if (answer.link !== undefined) {
          const shownBy = operations.find((other) => answer.link === `#operation-${other.operationId}`);
          expect(shownBy?.responses[statusCode], `${operation.operationId} ${statusCode} links ${answer.link}`).toEqual(response);
          shown = (await answersOf(shownBy!.operationId))[Object.keys(shownBy!.responses).indexOf(statusCode)]!;
          expect(shown.link, `${answer.link} shows ${statusCode} whole`).toBeUndefined();
        }
        for (const code of Object.keys(response.content?.['application/json']?.examples ?? {})) {
          expect(answer.text, `${operation.operationId} ${code}`).toContain(code);
          if (answer.link !== undefined) expect(shown.text, `${operation.operationId} ${code} at ${answer.link}`).toContain(code);
        }
      }
    }
  });

  it('shows the plans table, the rate-limit headers, the experimental marker and the deprecation with its sunset', async () => {
    const text = await page.$eval('main', (element) => (element as unknown as Rendered).innerText);
    for (const [plan, { perMinute, perDay }] of Object.entries(PLAN_LIMITS)) {
      expect(text).toMatch(new RegExp(`${plan}\\s+${perMinute.toLocaleString('en-US')}\\s+${perDay.toLocaleString('en-US')}`));
    }
    for (const header of [
      'X-RateLimit-Limit',
      'X-RateLimit-Remaining',
      'X-RateLimit-Reset',
      'RateLimit-Policy',
      'RateLimit',
      'Retry-After',
    ])
      expect(await page.$(`#header-${header}`)).not.toBeNull();
    expect(text).toContain('draft-ietf-httpapi-ratelimit-headers-10');
    expect(await page.$eval('#operation-updateInventory h2', (element) => (element as unknown as Rendered).innerText)).toContain(
      'Experimental',
    );
    expect(await page.$eval('#operation-getPetById h2', (element) => (element as unknown as Rendered).innerText)).toMatch(
      /Deprecated\s*Sunset 2027-07-01/,
    );
  });

  it('shows the inventory.changed webhook: its Standard Webhooks headers, its body and a signed example, linked from the contents', async () => {
    const section = await page.$('#webhook-inventoryChanged');
    expect(section).not.toBeNull();
    expect(await section!.isVisible()).toBe(true);
    const text = await section!.evaluate((element) => (element as unknown as Rendered).innerText);
    expect(text).toContain('inventory.changed');
    for (const header of ['webhook-id', 'webhook-timestamp', 'webhook-signature']) {
      expect(text).toContain(header);
      expect(text).toContain(WEBHOOK_EXAMPLE.headers[header as keyof typeof WEBHOOK_EXAMPLE.headers]);
    }
    expect(text).toContain(`"petId": ${WEBHOOK_EXAMPLE.body.data.petId}`);
    expect(text).toMatch(/2XX\s+Delivered/);
    expect(await page.$eval('nav a[href="#webhook-inventoryChanged"]', (element) => (element as unknown as Rendered).innerText)).toMatch(
      /POST\s+inventory\.changed/,
    );
  });

  it('shows its Markdown rendered: no ** or backtick is left in the text a reader sees', async () => {
    const text = await page.$eval('body', (body) => (body as unknown as Rendered).innerText);
    expect(text.match(/.{0,40}(\*\*|`).{0,40}/g) ?? []).toEqual([]);
  });

  it('gives the same pixels for the same page in a fresh tab, so npm run docs:screenshot leaves an unchanged picture alone', async () => {
    const shot = async () => {
      const tab = await browser.newPage();
      try {
        await tab.setViewport({ width: 1440, height: 1100 });
        await tab.goto(`${app.baseUrl}/docs`, { waitUntil: 'networkidle0', timeout: 30_000 });
        await tab.$eval('#operation-updateInventory', (element) =>
          (element as unknown as { scrollIntoView(options: object): void }).scrollIntoView({ behavior: 'instant' }),
        );
        return Buffer.from(await tab.screenshot());
      } finally {
        await tab.close();
      }
    };

    expect((await shot()).equals(await shot())).toBe(true);
  });

  it('has a target for every link within the page', async () => {
    const missing = await page.$$eval('a[href^="#"]', (links) =>
      links
        .map((link) => link.getAttribute('href')!.slice(1))
        .filter((id) => !(globalThis as unknown as InPage).document.getElementById(id)),
    );
    expect(missing).toEqual([]);
  });
});
