import { App } from 'aws-cdk-lib';
import { addPetStoreStages } from '../lib/petstore-app.ts';
import { StageConfigurationError } from '../lib/stage-environments.ts';

try {
  addPetStoreStages(new App());
} catch (error) {
  // A refusal of the stage's configuration is one line for the deployer, without a stack trace or code frame.
  if (!(error instanceof StageConfigurationError)) throw error;
  console.error(error.message);
  process.exitCode = 1;
}
