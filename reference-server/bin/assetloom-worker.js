#!/usr/bin/env node
// Committed launcher for a worker-only process (claims and runs generation tasks); see dist/worker-main.js.
// CommonJS, for the same reason as assetloom-server.js: UV_THREADPOOL_SIZE is set before the pool exists.
'use strict';
if (!process.env.UV_THREADPOOL_SIZE) process.env.UV_THREADPOOL_SIZE = '8';
import('../dist/worker-main.js');
