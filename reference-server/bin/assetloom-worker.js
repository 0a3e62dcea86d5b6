#!/usr/bin/env node
// Committed launcher for a worker-only process (claims and runs generation tasks); see dist/worker-main.js.
import '../dist/worker-main.js';
