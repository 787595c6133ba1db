/**
 * The cold-start floor with Powertools for AWS Lambda's Logger (@aws-lambda-powertools/logger):
 * the baseline, plus one log line per invocation, as our-logger-handler.ts writes with the
 * service's own logger.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import { handler as readPet } from './baseline-handler.ts';

const logger = new Logger({ serviceName: 'petstore-inventory' });

export const handler = async () => {
  const answer = await readPet();
  logger.info('request served', { status: answer.statusCode });
  return answer;
};
