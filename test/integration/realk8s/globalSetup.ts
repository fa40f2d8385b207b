// globalSetup of the `integration` project's realk8s tests: the 1.26 kit (./kitGlobalSetup.ts).
import { kitGlobalSetup } from './kitGlobalSetup';

export const { setup, teardown } = kitGlobalSetup('1.26');
