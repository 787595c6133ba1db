import type { APIGatewayProxyEvent } from 'aws-lambda';
import { ApiError, ErrorCode } from '../domain/errors.ts';
import { parsePetId } from '../domain/pet-id.ts';
import { isReservationId, reservationNotFound } from '../domain/reservation-ids.ts';
import type { PetId } from '../domain/schemas.ts';

/**
 * The path parameters a resource names (`{petId}`, `{reservationId}`), each read by its one
 * reader: a resource's parameters are known from its path, so an operation gets them read, in
 * their domain types, and never reads the event's itself.
 */

const READERS = {
  petId(text: string | undefined): PetId {
    const petId = parsePetId(text);
    if (petId === undefined)
      throw new ApiError(
        ErrorCode.invalidPetId,
        'petId must be an integer from 1 to 9223372036854775807, written without sign, leading zeros or exponent.',
      );
    return petId;
  },
  reservationId(text: string | undefined): string {
    const id = text ?? '';
    if (!isReservationId(id)) throw reservationNotFound(id.length > 64 ? `${id.slice(0, 64)}…` : id);
    return id;
  },
} as const;

type ParameterName<Resource extends string> = Resource extends `${string}{${infer Name}}${infer Rest}` ? Name | ParameterName<Rest> : never;

/** A resource's path parameters, each in its reader's type. */
export type PathParameters<Resource extends string> = {
  readonly [Name in ParameterName<Resource> & keyof typeof READERS]: ReturnType<(typeof READERS)[Name]>;
};

/** The parameters the resource names, read from the event; the first malformed one is refused as its reader says. */
export function pathParametersOf<Resource extends string>(
  resource: Resource,
  event: Pick<APIGatewayProxyEvent, 'pathParameters'>,
): PathParameters<Resource> {
  const names = [...resource.matchAll(/\{(\w+)\}/g)].map(([, name]) => name as keyof typeof READERS);
  return Object.fromEntries(names.map((name) => [name, READERS[name](event.pathParameters?.[name])])) as PathParameters<Resource>;
}
