import type { APIGatewayProxyResult } from 'aws-lambda';
import { SECURITY_HEADERS } from './security-headers.ts';

declare global {
  interface JSON {
    /** ES2025 (Node 21+): a value JSON.stringify emits verbatim. */
    rawJSON(text: string): unknown;
  }
}

/** JSON text in which bigints are written as exact integer literals (petId is int64). */
export function toJson(value: unknown): string {
  return JSON.stringify(value, (_key, field: unknown) => (typeof field === 'bigint' ? JSON.rawJSON(field.toString()) : field));
}

/**
 * toJson for a flat record (values that are JSON values or bigints, nothing nested that holds a
 * bigint), without JSON.stringify's replacer call per value: about four times faster on the
 * listing's entries, which it writes by the million.
 */
export function flatRecordJson(record: Readonly<Record<string, unknown>>): string {
  let text = '{';
  for (const key in record) {
    const value = record[key];
    if (value === undefined) continue;
    text += `${text.length > 1 ? ',' : ''}${JSON.stringify(key)}:${typeof value === 'bigint' ? value.toString() : JSON.stringify(value)}`;
  }
  return `${text}}`;
}

export const JSON_HEADERS = {
  'Content-Type': 'application/json',
  'Cache-Control': 'no-store',
  ...SECURITY_HEADERS,
} as const;

export function jsonResponse(statusCode: number, body: unknown, headers: Record<string, string> = {}): APIGatewayProxyResult {
  return { statusCode, headers: { ...JSON_HEADERS, ...headers }, body: toJson(body) };
}
