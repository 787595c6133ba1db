import { afterAll } from 'vitest';
import { removeTemporaryDirectories } from './infra/synthesized-app.ts';

// Here, not in synthesized-app.ts: the files of test/stacks share their workers (isolate: false in
// vitest.config.ts), so a module evaluates once per worker and its own afterAll would serve only the first file.
afterAll(removeTemporaryDirectories);
