import 'aws-sdk-client-mock-vitest/extend';
import { afterAll } from 'vitest';
import { provideLambdaStreaming } from '../local/lambda-streaming.ts';
import { deleteTestTables } from './support/local-store.ts';
import { removeTemporaryDirectories } from './support/temporary-directories.ts';

// The streamed handlers are built the way Lambda's runtime expects (Middy's streaming mode calls its awslambda global).
provideLambdaStreaming();

// Registered before the file's own hooks, so they run after them: the file's apps are closed first.
afterAll(deleteTestTables);
afterAll(removeTemporaryDirectories);
