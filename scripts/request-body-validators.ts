/**
 * `npm run validators` (write) compiles every body of REQUEST_BODY_SCHEMAS
 * (contract/request-body-schemas.ts) to Ajv standalone code in
 * functions/http/request-body-validators.generated.ts. `npm run validators:check` (check), part
 * of `npm test`, fails when the committed file differs from what the schemas compile to now.
 */
import { GENERATED_VALIDATORS_FILE, renderRequestBodyValidators } from '../contract/request-body-validators.ts';
import { runScript, writeOrCheck } from './generated-files.ts';

runScript(() =>
  writeOrCheck(
    process.argv[2],
    async () => [{ file: GENERATED_VALIDATORS_FILE, text: renderRequestBodyValidators() }],
    'npm run validators',
    'tsx scripts/request-body-validators.ts write|check',
  ),
);
