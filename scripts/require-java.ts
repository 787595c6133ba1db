/**
 * First step of `npm test`: the store tests run on DynamoDB Local, which needs Java. Without it,
 * one line says what to install, before a minute of type checking and a wall of failed tests.
 */
import { requireJava } from '../local/local-store.ts';

try {
  requireJava();
} catch (error) {
  console.error(error instanceof Error ? error.message : error);
  process.exit(1);
}
