import { describe, expect, it, vi } from 'vitest';
import { StoreUnavailableError } from '../../../functions/domain/errors.ts';
import { HEALTH_OUTCOME_TTL_MS, HealthChecks } from '../../../functions/domain/health.ts';
import { RateLimitedError } from '../../../functions/domain/plan-limiter.ts';
import { errorHeaders } from '../../../functions/http/error-formatter.ts';

const START = Date.UTC(2026, 10, 24, 7, 0, 0);

describe('HealthChecks', () => {
  it('reads the store at most once a second, however many checks arrive', async () => {
    let now = START;
    const get = vi.fn(async () => undefined);
    const checks = new HealthChecks({ get }, 60, () => now);

    await Promise.all(Array.from({ length: 1_000 }, () => checks.check()));
    now += HEALTH_OUTCOME_TTL_MS - 1;
    await checks.check();
    const withinTheSecond = get.mock.calls.length;
    now += 1;
    await checks.check();

    expect([withinTheSecond, get.mock.calls.length]).toEqual([1, 2]);
  });

  it('answers a failed probe for its second too, then probes again', async () => {
    let now = START;
    const get = vi.fn().mockRejectedValueOnce(new StoreUnavailableError()).mockResolvedValue(undefined);
    const checks = new HealthChecks({ get }, 60, () => now);

    await expect(checks.check()).rejects.toBeInstanceOf(StoreUnavailableError);
    await expect(checks.check()).rejects.toBeInstanceOf(StoreUnavailableError);
    now += HEALTH_OUTCOME_TTL_MS;

    await expect(checks.check()).resolves.toEqual({ status: 'ok', store: 'ok' });
    expect(get).toHaveBeenCalledTimes(2);
  });

  it('admits 60 checks a minute per address, refuses the 61st with the window, and starts again the next minute', () => {
    let now = START + 10_000;
    const checks = new HealthChecks({ get: async () => undefined }, 60, () => now);

    const admitted = Array.from({ length: 60 }, () => checks.admit('198.51.100.7'));
    const refused = (() => {
      try {
        checks.admit('198.51.100.7');
        return undefined;
      } catch (error) {
        return error;
      }
    })();
    const otherAddress = checks.admit('203.0.113.9');
    now += 60_000;
    const nextMinute = checks.admit('198.51.100.7');

    expect(admitted.at(-1)).toBe(0);
    expect(refused).toBeInstanceOf(RateLimitedError);
    expect(errorHeaders(refused as RateLimitedError)).toMatchObject({ 'Retry-After': '50', 'X-RateLimit-Remaining': '0' });
    expect([otherAddress, nextMinute]).toEqual([59, 59]);
  });
});
