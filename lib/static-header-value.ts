/** A static header value in API Gateway's notation: the value in single quotes, a quote within it escaped (CSP's 'none'). */
export function staticHeaderValue(value: string): string {
  return `'${value.replaceAll("'", "\\'")}'`;
}
