import type { NumberValue } from '@aws-sdk/lib-dynamodb';
import type { UsageWindow } from '../../domain/plan-limiter.ts';

/**
 * The layout both counting items share, a key's usage and an address's failed authentications:
 * one item per UTC day, a minute's count in its own `minute<N>` attribute.
 */

/** Counters outlive their window by an hour so that an operator can still inspect a burst. */
export const KEEP_AFTER_RESET_SECONDS = 3_600;
export const DAY_SECONDS = 86_400;
/**
 * Each count removes the minute counts of the hour before its previous minute. The previous
 * minute's count stays: an instance whose clock is a little behind may still be counting in it.
 */
const MINUTES_FORGOTTEN_PER_COUNT = 60;

export const toNumber = (value: unknown) => (value === undefined ? 0 : Number((value as NumberValue).toString()));

export const minuteOfDay = (startsAt: number) => Math.floor((startsAt % DAY_SECONDS) / 60);
export const minuteAttribute = (minuteIndex: number) => `minute${minuteIndex}`;

/** The REMOVE clause that forgets the minute counts of the hour before the previous minute (MINUTES_FORGOTTEN_PER_COUNT). */
export function forgettingClause(minute: UsageWindow): string {
  const index = minuteOfDay(minute.startsAt);
  const forgotten: string[] = [];
  for (let older = index - 2; older >= Math.max(0, index - 1 - MINUTES_FORGOTTEN_PER_COUNT); older -= 1)
    forgotten.push(minuteAttribute(older));
  return forgotten.length > 0 ? ` REMOVE ${forgotten.join(', ')}` : '';
}
