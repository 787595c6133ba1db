import { createFailedAuthenticationRepository } from '../adapters/dynamodb/failed-authentication-repository.ts';
import { FailedAuthenticationLimiter } from '../domain/failed-authentications.ts';
import type { Part } from './part.ts';

/** The source address's window of failed authentications (the authorizer counts it; uncounted answers report it). */
export const failedAuthenticationsPart: Part<FailedAuthenticationLimiter> = ({ stores, config }) =>
  new FailedAuthenticationLimiter(
    createFailedAuthenticationRepository(stores.countingClient, config.usageCountersTable),
    config.failedAuthenticationsPerMinute,
  );
