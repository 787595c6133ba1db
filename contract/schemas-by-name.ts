import * as Schemas from '../functions/domain/schemas.ts';

/** The schemas of domain/schemas.ts by their export's name, as the operation registry (functions/routes.ts) names them. */
export const SCHEMAS_BY_NAME: typeof Schemas = { ...Schemas };
