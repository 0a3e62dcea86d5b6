import { defineContractSuite } from './suite.js';
import { hasRuntime, serverTarget } from './targets.js';

const target = await serverTarget();
defineContractSuite(target, await hasRuntime(target.baseUrl));
