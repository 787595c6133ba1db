import { parseList } from 'structured-headers';
import { expect } from 'vitest';

/**
 * RateLimit-Policy and RateLimit (draft-ietf-httpapi-ratelimit-headers-10) as a client reads
 * them: parsed by a structured-field parser, never by a pattern of ours.
 */
export interface ParsedWindow {
  name: string;
  /** `q` and `w` of RateLimit-Policy; undefined when the answer carries no policy. */
  quota?: number;
  seconds?: number;
  /** `r` and `t` of RateLimit. */
  remaining: number;
  secondsLeft?: number;
}

/** Header values as a Lambda answer or a Fetch answer holds them. */
type Headers = Readonly<Record<string, string | number | boolean | undefined>>;

/** A header by name, whatever the case of the names in `headers`. */
function headerOf(headers: Headers, name: string): string | undefined {
  const value = Object.entries(headers).find(([candidate]) => candidate.toLowerCase() === name.toLowerCase())?.[1];
  return value === undefined ? undefined : String(value);
}

/** Each item's name (a String) and its Integer parameters; the parser throws on anything that is not a List. */
function namedItems(value: string): [string, Map<string, number>][] {
  return parseList(value).map(([name, parameters]) => {
    expect(typeof name, `an item of ${value} is named by a String`).toBe('string');
    const integers = new Map<string, number>();
    for (const [key, parameter] of parameters) {
      expect(Number.isInteger(parameter), `${key} of ${value} is an Integer`).toBe(true);
      integers.set(key, parameter as number);
    }
    return [name as string, integers];
  });
}

/** The windows of an answer: RateLimit's, each with RateLimit-Policy's quota when the answer has it. */
export function rateLimitWindowsOf(headers: Headers): ParsedWindow[] {
  const state = headerOf(headers, 'RateLimit');
  expect(state, 'RateLimit is present').toBeDefined();
  const policyValue = headerOf(headers, 'RateLimit-Policy');
  const policies = new Map(policyValue === undefined ? [] : namedItems(policyValue));
  return namedItems(state!).map(([name, parameters]) => {
    expect(parameters.get('r'), `r of ${name}`).toBeGreaterThanOrEqual(0);
    const policy = policies.get(name);
    return {
      name,
      remaining: parameters.get('r')!,
      ...(parameters.has('t') ? { secondsLeft: parameters.get('t') } : {}),
      ...(policy ? { quota: policy.get('q'), seconds: policy.get('w') } : {}),
    };
  });
}

/**
 * Checks an answer's rate-limit headers and returns its windows: RateLimit-Policy names the
 * windows RateLimit states, and the window X-RateLimit-* describe agrees with them exactly:
 * its `q` is X-RateLimit-Limit, its `r` X-RateLimit-Remaining, and X-RateLimit-Reset less its
 * `t` is the second the answer was made, within [`from`, `to`] (Unix seconds) when given.
 */
export function expectAgreeingRateLimitFields(headers: Headers, answeredAt?: { from: number; to: number }): ParsedWindow[] {
  const windows = rateLimitWindowsOf(headers);
  const policyValue = headerOf(headers, 'RateLimit-Policy');
  expect(policyValue, 'RateLimit-Policy is present').toBeDefined();
  expect(namedItems(policyValue!).map(([name]) => name)).toEqual(windows.map((window) => window.name));
  for (const window of windows) expect(window.quota).toBeGreaterThanOrEqual(window.remaining);

  const limit = Number(headerOf(headers, 'X-RateLimit-Limit'));
  const remaining = Number(headerOf(headers, 'X-RateLimit-Remaining'));
  const described = windows.filter((window) => window.quota === limit && window.remaining === remaining);
  expect(described, `one window is the one X-RateLimit-* describe (${limit}, ${remaining})`).toHaveLength(1);
  const reset = headerOf(headers, 'X-RateLimit-Reset');
  if (reset === undefined) {
    expect(described[0]!.secondsLeft, 'no t where X-RateLimit-Reset is absent').toBeUndefined();
  } else {
    expect(described[0]!.secondsLeft).toBeDefined();
    const madeAt = Number(reset) - described[0]!.secondsLeft!;
    if (answeredAt) {
      expect(madeAt).toBeGreaterThanOrEqual(answeredAt.from);
      expect(madeAt).toBeLessThanOrEqual(answeredAt.to);
    }
  }
  return windows;
}

/** The plan's two windows as RateLimit-Policy states them. */
export const planPolicy = (perMinute: number, perDay: number) => [
  { name: 'minute', quota: perMinute, seconds: 60 },
  { name: 'day', quota: perDay, seconds: 86_400 },
];
