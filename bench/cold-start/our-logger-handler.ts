/**
 * The cold-start floor with the service's logger: the baseline, plus one log line per
 * invocation in the service's format (functions/logger.ts). Beside the same with Powertools'
 * Logger, it measures what each logger adds to a cold start.
 */
import { logger } from '../../functions/logger.ts';
import { handler as readPet } from './baseline-handler.ts';

export const handler = async () => {
  const answer = await readPet();
  logger.info('request served', { status: answer.statusCode });
  return answer;
};
