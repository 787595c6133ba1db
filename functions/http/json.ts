import type { APIGatewayProxyResult } from 'aws-lambda';
import { toJson } from '../int64-json.ts';
import { SECURITY_HEADERS } from './security-headers.ts';

export const JSON_HEADERS = {
  'Content-Type': 'application/json',
  'Cache-Control': 'no-store',
  ...SECURITY_HEADERS,
} as const;

export function jsonResponse(statusCode: number, body: unknown, headers: Record<string, string> = {}): APIGatewayProxyResult {
  return { statusCode, headers: { ...JSON_HEADERS, ...headers }, body: toJson(body) };
}

/** An answer without a body (204): the same headers but the content type, as there is no content. */
export function noContentResponse(headers: Record<string, string> = {}): APIGatewayProxyResult {
  const { 'Content-Type': _none, ...kept } = JSON_HEADERS;
  return { statusCode: 204, headers: { ...kept, ...headers }, body: '' };
}
