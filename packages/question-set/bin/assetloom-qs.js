#!/usr/bin/env node
// A committed launcher, so that package managers can link the bin before dist/ is built
// (workspace installs link bins first); the CLI itself is dist/cli.js.
import '../dist/cli.js';
