import type { APIGatewayProxyEvent } from 'aws-lambda';
import { readPetsSunset } from '../functions/config.ts';
import { entityTag, matchesEntityTag, PUBLISHED_PAGES, publishedPageHeaders, type PublishedPage } from '../contract/published-contract.ts';
import type { HttpHandler } from '../functions/http/http-handler.ts';
import type { LocalRoute } from './local-server.ts';
import { API_STAGE_NAME } from '../functions/routes.ts';

/** A Host header that can only be a host and port (anything else is not echoed into a page). */
const HOST = /^[A-Za-z0-9.-]+(:\d{1,5})?$|^\[[0-9A-Fa-f:.]+\](:\d{1,5})?$/;

function header(event: APIGatewayProxyEvent, name: string): string | undefined {
  return Object.entries(event.headers).find(([key]) => key.toLowerCase() === name)?.[1] ?? undefined;
}

/**
 * A published page, as a stage serves it: the document names the server the request came to
 * (as API Gateway's $context.domainName does), carries the sunset this process runs with
 * (PETS_SUNSET_DATE), and answers a matching If-None-Match with 304.
 */
function publishedPageHandler(
  page: PublishedPage,
  fallbackHost: string,
  uncountedRateLimitHeaders: () => Record<string, string>,
): HttpHandler {
  const petsSunset = readPetsSunset();
  const rendered = new Map<string, { body: string; etag: string }>();
  return async (event) => {
    const requestedHost = header(event, 'host');
    const host = requestedHost && HOST.test(requestedHost) ? requestedHost : fallbackHost;
    let answer = rendered.get(host);
    if (!answer) {
      // Hosts are few (localhost, 127.0.0.1, a LAN name); a client inventing them cannot grow this without bound.
      if (rendered.size >= 16) rendered.clear();
      const body = page.render({ serverUrl: `http://${host}/${API_STAGE_NAME}`, petsSunset });
      answer = { body, etag: entityTag(body) };
      rendered.set(host, answer);
    }
    // As the stage's mock integration computes them (lib/published-contract.ts): no window counts a page.
    const headers = { ...publishedPageHeaders(page, answer.etag), ...uncountedRateLimitHeaders() };
    if (matchesEntityTag(header(event, 'if-none-match'), answer.etag)) return { statusCode: 304, headers, body: '' };
    return { statusCode: 200, headers, body: answer.body };
  };
}

/** GET /v1/openapi.json and GET /v1/docs, readable without a key, as on every stage. */
export function publishedContractRoutes(uncountedRateLimitHeaders: () => Record<string, string>, fallbackHost = 'localhost'): LocalRoute[] {
  return Object.values(PUBLISHED_PAGES).map((page) => ({
    route: { method: 'GET', resource: page.resource },
    handler: publishedPageHandler(page, fallbackHost, uncountedRateLimitHeaders),
    authorized: false,
  }));
}
