#!/usr/bin/env node
// Committed launcher (workspace installs link bins before dist/ is built); the server is dist/main.js.
// CommonJS (bin/package.json): the CommonJS loader reads this file synchronously, so nothing has used
// libuv's thread pool yet when UV_THREADPOOL_SIZE is set below (an ES module entry is read through
// the pool, which then keeps its default of 4). Logins (scrypt), file reads, store appends and
// picture decoding share that pool (decision 0043).
'use strict';
if (!process.env.UV_THREADPOOL_SIZE) process.env.UV_THREADPOOL_SIZE = '8';
import('../dist/main.js');
