import { App } from 'aws-cdk-lib';
import { addPetStoreStages } from '../lib/petstore-app.ts';

addPetStoreStages(new App());
