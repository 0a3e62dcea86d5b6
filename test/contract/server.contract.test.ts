import { defineCharacterSuite } from './characters.js';
import { defineContractSuite } from './suite.js';
import { hasRuntime, serverTarget } from './targets.js';

const target = await serverTarget();
defineContractSuite(target, await hasRuntime(target.baseUrl));
defineCharacterSuite(target, await hasRuntime(target.baseUrl));
