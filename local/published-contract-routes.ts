import type { APIGatewayProxyEvent } from 'aws-lambda';
import { readPetsSunset } from '../functions/config.ts';
import { entityTag, matchesEntityTag, PUBLISHED_PAGES, publishedPageHeaders, type PublishedPage } from '../contract/published-contract.ts';
import type { HttpHandler } from '../functions/http/http-handler.ts';
import { jsonResponse } from '../functions/http/json.ts';
import type { LocalRoute } from './local-server.ts';
import { API_STAGE_NAME } from '../functions/routes.ts';

function header(event: APIGatewayProxyEvent, name: string): string | undefined {
  return Object.entries(event.headers).find(([key]) => key.toLowerCase() === name)?.[1] ?? undefined;
}

/**
 * A published page, as a stage serves it: the document names the server from configuration (the
 * server's own address, or PUBLIC_BASE_URL), never the request's Host, which a client chooses and
 * a shared cache would keep for everyone. It carries the sunset this process runs with
 * (PETS_SUNSET_DATE), is rendered once, and answers a matching If-None-Match with 304.
 */
function publishedPageHandler(
  page: PublishedPage,
  serverUrl: () => string,
  uncountedRateLimitHeaders: () => Record<string, string>,
): HttpHandler {
  const petsSunset = readPetsSunset();
  let answer: { body: string; etag: string } | undefined;
  return async (event) => {
    if (!answer) {
      // Rendered at the first request: the address is known only once the server listens.
      const body = page.render({ serverUrl: serverUrl(), petsSunset });
      answer = { body, etag: entityTag(body) };
    }
    // As the stage's mock integration computes them (lib/published-contract.ts): no window counts a page.
    const headers = { ...publishedPageHeaders(page, answer.etag), ...uncountedRateLimitHeaders() };
    if (matchesEntityTag(header(event, 'if-none-match'), answer.etag)) return { statusCode: 304, headers, body: '' };
    return { statusCode: 200, headers, body: answer.body };
  };
}

/**
 * GET /v1/openapi.json and GET /v1/docs, readable without a key, as on every stage; `serverUrl` is
 * the base URL they name, ending in /v1. Locally also GET /v1, the address `npm start` prints: the
 * links a newcomer follows from there (the reference, the contract, the health check), where a
 * stage answers its gateway's 403.
 */
export function publishedContractRoutes(uncountedRateLimitHeaders: () => Record<string, string>, serverUrl: () => string): LocalRoute[] {
  const links: LocalRoute = {
    route: { method: 'GET', resource: '/' },
    handler: async () =>
      jsonResponse(
        200,
        { docs: `${serverUrl()}/docs`, openapi: `${serverUrl()}/openapi.json`, health: `${serverUrl()}/health` },
        uncountedRateLimitHeaders(),
      ),
    authorized: false,
  };
  return [
    ...Object.values(PUBLISHED_PAGES).map(
      (page): LocalRoute => ({
        route: { method: 'GET', resource: page.resource },
        handler: publishedPageHandler(page, serverUrl, uncountedRateLimitHeaders),
        authorized: false,
      }),
    ),
    links,
  ];
}

/** PUBLIC_BASE_URL as the published pages name it: an http(s) URL ending in /v1, no query or fragment; a mistake is one line. */
export function parsePublicBaseUrl(value: string): string {
  let url: URL | undefined;
  try {
    url = new URL(value);
  } catch {
    url = undefined;
  }
  const path = url?.pathname.replace(/\/$/, '');
  if (!url || !['http:', 'https:'].includes(url.protocol) || url.search || url.hash || !path?.endsWith(`/${API_STAGE_NAME}`))
    throw new Error(
      `PUBLIC_BASE_URL must be the http(s) base URL clients call, ending in /${API_STAGE_NAME}, such as https://inventory.example/${API_STAGE_NAME} (got "${value}").`,
    );
  return `${url.origin}${path}`;
}
