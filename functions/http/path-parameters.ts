import type { APIGatewayProxyEvent } from 'aws-lambda';
import { ApiError, ErrorCode } from '../domain/errors.ts';
import { parsePetId } from '../domain/pet-id.ts';
import type { PetId } from '../domain/schemas.ts';

export function petIdFromPath(event: Pick<APIGatewayProxyEvent, 'pathParameters'>): PetId {
  const text = event.pathParameters?.petId;
  const petId = parsePetId(text);
  if (petId === undefined) {
    throw new ApiError(
      ErrorCode.invalidPetId,
      'petId must be an integer from 1 to 9223372036854775807, written without sign, leading zeros or exponent.',
    );
  }
  return petId;
}
