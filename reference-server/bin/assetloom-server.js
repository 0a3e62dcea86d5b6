#!/usr/bin/env node
// Committed launcher (workspace installs link bins before dist/ is built); the server is dist/main.js.
import '../dist/main.js';
