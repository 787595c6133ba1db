import type { RateLimitState, WindowState } from '../domain/rate-limit-state.ts';

/**
 * The rate-limit headers, one constant per name. X-RateLimit-* are the spec's (section 8) and
 * describe one window; RateLimit-Policy and RateLimit are draft-ietf-httpapi-ratelimit-headers-10's
 * structured fields and describe every window of the answer (docs/rate-limit-fields.md).
 */
export const RATE_LIMIT_LIMIT_HEADER = 'X-RateLimit-Limit';
export const RATE_LIMIT_REMAINING_HEADER = 'X-RateLimit-Remaining';
export const RATE_LIMIT_RESET_HEADER = 'X-RateLimit-Reset';
export const RATE_LIMIT_POLICY_HEADER = 'RateLimit-Policy';
export const RATE_LIMIT_HEADER = 'RateLimit';

/** A Structured Field String (RFC 9651, section 3.3.3): quoted, with `"` and `\` escaped. */
export function structuredString(value: string): string {
  if (!/^[\x20-\x7e]*$/.test(value)) throw new Error(`A structured-field string holds printable ASCII only, not ${JSON.stringify(value)}.`);
  return `"${value.replaceAll('\\', '\\\\').replaceAll('"', '\\"')}"`;
}

/** A List of Items (RFC 9651, section 3.1): each a String with Integer parameters, in order. */
function structuredList(items: readonly [string, readonly (readonly [string, number | undefined])[]][]): string {
  return items
    .map(([name, parameters]) =>
      [structuredString(name), ...parameters.flatMap(([key, value]) => (value === undefined ? [] : [`${key}=${value}`]))].join(';'),
    )
    .join(', ');
}

/**
 * The headers of a rate-limit state: X-RateLimit-* of the reported window, RateLimit-Policy
 * with the quota (`q`) and window (`w`) of each, RateLimit with what is left (`r`) and the
 * seconds until more comes (`t`, resetsAt less the state's time: X-RateLimit-Reset less `t`
 * is the moment of the answer). Where the reset is unknown, X-RateLimit-Reset and `t` are absent.
 */
export function rateLimitHeaders(state: RateLimitState): Record<string, string> {
  return {
    [RATE_LIMIT_LIMIT_HEADER]: String(state.limit),
    [RATE_LIMIT_REMAINING_HEADER]: String(state.remaining),
    ...(state.resetsAt === undefined ? {} : { [RATE_LIMIT_RESET_HEADER]: String(state.resetsAt) }),
    [RATE_LIMIT_POLICY_HEADER]: rateLimitPolicyField(state.windows),
    [RATE_LIMIT_HEADER]: rateLimitField(state.windows, state.at),
  };
}

/** RateLimit alone: each window's remaining requests and, where its reset and `at` are known, the seconds from `at` to it. */
export function rateLimitField(windows: readonly Pick<WindowState, 'policy' | 'remaining' | 'resetsAt'>[], at: number | undefined): string {
  return structuredList(
    windows.map((window) => [
      window.policy,
      [
        ['r', window.remaining],
        ['t', window.resetsAt === undefined || at === undefined ? undefined : Math.max(0, window.resetsAt - at)],
      ],
    ]),
  );
}

/** RateLimit-Policy alone: what a window allows does not change from answer to answer. */
export function rateLimitPolicyField(windows: readonly WindowState[]): string {
  return structuredList(
    windows.map((window) => [
      window.policy,
      [
        ['q', window.limit],
        ['w', window.seconds],
      ],
    ]),
  );
}
