import 'aws-sdk-client-mock-vitest/extend';
import { provideLambdaStreaming } from '../local/lambda-streaming.ts';

// The streamed handlers are built the way Lambda's runtime expects (Middy's streaming mode calls its awslambda global).
provideLambdaStreaming();
