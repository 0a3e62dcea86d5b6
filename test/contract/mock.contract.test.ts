import { defineCharacterSuite } from './characters.js';
import { defineContractSuite } from './suite.js';
import { hasRuntime, mockTarget } from './targets.js';

const target = await mockTarget();
defineContractSuite(target, await hasRuntime(target.baseUrl));
defineCharacterSuite(target, await hasRuntime(target.baseUrl));
