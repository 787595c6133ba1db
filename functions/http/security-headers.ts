/**
 * What every answer of a JSON API should say to a browser that loads it anyway: do not guess
 * another content type, never frame or render it as a page, HTTPS only (ignored over plain
 * HTTP, as locally). No Access-Control-Allow-* header: browsers may not call the API (see
 * docs/api-guide.md, "Security headers and CORS").
 */
export const SECURITY_HEADERS = {
  'X-Content-Type-Options': 'nosniff',
  'X-Frame-Options': 'DENY',
  'Content-Security-Policy': "default-src 'none'; frame-ancestors 'none'",
  'Referrer-Policy': 'no-referrer',
  'Strict-Transport-Security': 'max-age=31536000; includeSubDomains',
} as const;
