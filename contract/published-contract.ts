import { createHash } from 'node:crypto';
import { SECURITY_HEADERS } from '../functions/http/security-headers.ts';
import { CONTENT_SECURITY_POLICY, renderApiReference, type ReferenceDocument } from './api-reference.ts';
import { buildOpenApiDocument, renderOpenApiDocument, type PublishedDocumentOptions } from './openapi-document.ts';

/**
 * The two pages every server of the API publishes without a key, beside the operations: the
 * OpenAPI document and the reference rendered from it. Both name the server from configuration,
 * never from a request header: locally the server's own address or PUBLIC_BASE_URL, rendered
 * once; on AWS at synth time around a placeholder the stage fills in (lib/published-contract.ts).
 */
export interface PublishedPage {
  /** Path after the stage (`/v1`). */
  resource: string;
  contentType: string;
  /** The JSON API's policy for the document; the reference's own, which allows its inline style and nothing else. */
  contentSecurityPolicy: string;
  render(options: PublishedDocumentOptions): string;
}

export const PUBLISHED_PAGES = {
  openApiDocument: {
    resource: '/openapi.json',
    contentType: 'application/json',
    contentSecurityPolicy: SECURITY_HEADERS['Content-Security-Policy'],
    render: (options: PublishedDocumentOptions) => renderOpenApiDocument(options, { compact: true }),
  },
  apiReference: {
    resource: '/docs',
    contentType: 'text/html; charset=utf-8',
    contentSecurityPolicy: CONTENT_SECURITY_POLICY,
    render: (options: PublishedDocumentOptions) => renderApiReference(buildOpenApiDocument(options) as ReferenceDocument),
  },
} as const satisfies Record<string, PublishedPage>;

/**
 * Both pages change only with a deploy (or a restart), so a cache may keep them a few minutes
 * and then revalidate with the ETag, which costs a 304 without a body.
 */
export const PUBLISHED_PAGE_MAX_AGE_SECONDS = 300;

/**
 * Headers of every answer of a published page, 200 or 304: the API's security headers, with the
 * page's own Content-Security-Policy (the reference's is in its meta tag too, for a copy saved to disk).
 */
export function publishedPageHeaders(page: PublishedPage, etag: string): Record<string, string> {
  return {
    'Content-Type': page.contentType,
    'Cache-Control': `public, max-age=${PUBLISHED_PAGE_MAX_AGE_SECONDS}`,
    ETag: etag,
    ...SECURITY_HEADERS,
    'Content-Security-Policy': page.contentSecurityPolicy,
  };
}

/** A strong validator for a text: one deploy's page at one URL is always the same text. */
export function entityTag(text: string): string {
  return `"${createHash('sha256').update(text).digest('base64url').slice(0, 27)}"`;
}

/** Whether an If-None-Match header names this entity tag (or `*`), by the weak comparison of RFC 9110. */
export function matchesEntityTag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  return ifNoneMatch.split(',').some((candidate) => {
    const tag = candidate.trim();
    return tag === '*' || tag.replace(/^W\//, '') === etag;
  });
}
