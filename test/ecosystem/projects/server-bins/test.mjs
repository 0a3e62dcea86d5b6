// Production start from the packed tarballs (issue #17): `npx assetloom-server` and
// `npx assetloom-worker` as installed by `npm install ./assetloom-server-*.tgz …` into this folder,
// run with node on the built JavaScript (no tsx, no workspace). The runner gives MONGODB_URI (a
// MongoDB-wire server shared by the processes; FerretDB when nothing else is set).
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readdirSync, readFileSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { check, isPng, uniqueName } from './project-helpers.mjs';

const here = process.cwd();
const children = new Set();

// What the installed package is: built JS only, no dev tooling at run time.
const installed = JSON.parse(readFileSync(join(here, 'node_modules/@assetloom/server/package.json'), 'utf8'));
check(installed.bin['assetloom-server'] && installed.bin['assetloom-worker'], 'both bins are declared');
check(
  existsSync(join(here, 'node_modules/@assetloom/server/dist/main.js')),
  'dist/main.js is in the tarball',
);
check(!existsSync(join(here, 'node_modules/tsx')), 'tsx is not installed with the server');
check(!existsSync(join(here, 'node_modules/@assetloom/server/src')), 'no TypeScript sources in the tarball');

function freePort() {
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', reject);
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address();
      probe.close(() => resolve(port));
    });
  });
}

/** `npx <bin>` in this folder; resolves once the JSON log says `waitFor` (lines kept for errors). */
function npx(bin, env, waitFor) {
  const child = spawn('npx', ['--no-install', bin], {
    cwd: here,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      JWT_SECRET: 'ecosystem-secret-0123456789-abcdefghijklmn',
      SCRYPT_COST: '10',
      LOG_FLUSH_MS: '0',
      LOG_LEVEL: 'info',
      HOST: '127.0.0.1',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  children.add(child);
  let output = '';
  const ready = new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`${bin} did not log "${waitFor}" within 30 s:\n${output}`)),
      30_000,
    );
    child.stdout.on('data', (chunk) => {
      output += chunk;
      for (const line of output.split('\n')) {
        try {
          const record = JSON.parse(line);
          if (record.msg === waitFor) {
            clearTimeout(timer);
            resolve(record);
          }
        } catch {}
      }
    });
    child.stderr.on('data', (chunk) => {
      output += chunk;
    });
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${bin} exited with ${code}:\n${output}`));
    });
  });
  const stop = async () => {
    if (child.exitCode !== null || child.signalCode !== null) return;
    const exited = new Promise((resolve) => child.once('exit', resolve));
    process.kill(-child.pid, 'SIGTERM');
    const timer = setTimeout(() => process.kill(-child.pid, 'SIGKILL'), 10_000);
    await exited;
    clearTimeout(timer);
    children.delete(child);
  };
  return { child, ready, stop, output: () => output };
}

async function api(base, method, path, { token, json } = {}) {
  const headers = {};
  if (token) headers.authorization = `Bearer ${token}`;
  if (json !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(`${base}${path}`, {
    method,
    headers,
    body: json === undefined ? undefined : JSON.stringify(json),
  });
  return { status: res.status, body: await res.json() };
}

// 4×4 pictures written by sharp: a grey JPEG and a white PNG
const JPEG = Buffer.from(
  '/9j/2wBDAAYEBQYFBAYGBQYHBwYIChAKCgkJChQODwwQFxQYGBcUFhYaHSUfGhsjHBYWICwgIyYnKSopGR8tMC0oMCUoKSj/2wBDAQcHBwoIChMKChMoGhYaKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCgoKCj/wAARCAAEAAQDASIAAhEBAxEB/8QAFQABAQAAAAAAAAAAAAAAAAAAAAf/xAAUEAEAAAAAAAAAAAAAAAAAAAAA/8QAFAEBAAAAAAAAAAAAAAAAAAAAAP/EABQRAQAAAAAAAAAAAAAAAAAAAAD/2gAMAwEAAhEDEQA/ALAAD//Z',
  'base64',
);
const PNG = Buffer.from(
  'iVBORw0KGgoAAAANSUhEUgAAAAQAAAAECAYAAACp8Z5+AAAACXBIWXMAAAPoAAAD6AG1e1JrAAAAD0lEQVQImWP4jwYYSBcAAHg8P8HaEZ1pAAAAAElFTkSuQmCC',
  'base64',
);

/** Without sharp (UPLOAD_DECODER=auto): a start-up warning names it; a PNG is taken, a JPEG refused (400) and the log names sharp. */
async function uploadsWithoutSharp(base, output) {
  check(
    /uploads read PNG only: sharp is not installed.*npm install sharp@/.test(output()),
    `the start-up log names sharp's install line:\n${output()}`,
  );
  const username = uniqueName('up');
  await api(base, 'POST', '/auth/register', { json: { username, password: 'secret-pass' } });
  const { token } = (await api(base, 'POST', '/auth/login', { json: { username, password: 'secret-pass' } }))
    .body.data;
  const post = async (bytes, type) => {
    const res = await fetch(`${base}/api/v1/uploads`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': type },
      body: bytes,
    });
    return { status: res.status, text: await res.text() };
  };
  const png = await post(PNG, 'image/png');
  check(
    png.status === 201 || png.status === 200,
    `a PNG upload is taken without sharp: ${png.status} ${png.text}`,
  );
  const jpeg = await post(JPEG, 'image/jpeg');
  check(
    jpeg.status === 400 && JSON.parse(jpeg.text).data?.reason === 'image_unreadable',
    `a JPEG upload without sharp answers 400 image_unreadable: ${jpeg.status} ${jpeg.text}`,
  );
  // the envelope carries no free text: the server's log names the cause and the install line
  await new Promise((resolve) => setTimeout(resolve, 200));
  check(
    /a JPEG upload was refused: this server reads PNG uploads only because sharp is not installed.*npm install sharp@/.test(
      output(),
    ),
    `the log names sharp for the refused JPEG:\n${output()}`,
  );
}

async function generateAndWait(base, label) {
  const username = uniqueName('bin');
  check(
    (await api(base, 'POST', '/auth/register', { json: { username, password: 'secret-pass' } })).status ===
      201,
    `${label}: register`,
  );
  const login = await api(base, 'POST', '/auth/login', { json: { username, password: 'secret-pass' } });
  const token = login.body.data.token;
  const project = await api(base, 'POST', '/api/v1/projects', { token, json: { name: 'Bins' } });
  const task = await api(base, 'POST', '/api/v1/generate', {
    token,
    json: {
      projectId: project.body.data.id,
      prompt: 'a brave knight',
      assetType: 'sprite',
      params: { resolution: 16 },
    },
  });
  check(task.status === 200, `${label}: generate answered ${task.status}`);
  const taskId = task.body.data.taskId;
  for (let i = 0; i < 600; i++) {
    const read = await api(base, 'GET', `/api/v1/tasks/${taskId}`, { token });
    if (read.body.data.status === 'completed') {
      const assets = await api(base, 'GET', `/api/v1/tasks/${taskId}/assets`, { token });
      const sheet = assets.body.data.assets.find((a) => a.key.endsWith('sprite.png'));
      const png = new Uint8Array(await (await fetch(sheet.url)).arrayBuffer());
      check(isPng(png), `${label}: the sprite sheet downloads as a PNG`);
      return taskId;
    }
    check(read.body.data.status !== 'failed', `${label}: task failed: ${read.body.data.error}`);
    await new Promise((r) => setTimeout(r, 50));
  }
  throw new Error(`${label}: task ${taskId} did not complete within 30 s`);
}

/** `npx <bin> <args>` to its exit, in an empty folder (20 s at most). */
function npxSync(bin, args, env = {}) {
  const cwd = mkdtempSync(join(tmpdir(), 'assetloom-bins-cli-'));
  const result = spawnSync('npx', ['--no-install', '--prefix', here, bin, ...args], {
    cwd,
    env: {
      ...process.env,
      NODE_ENV: 'test',
      JWT_SECRET: 'ecosystem-secret-0123456789-abcdefghijklmn',
      ...env,
    },
    encoding: 'utf8',
    timeout: 20_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr, files: readdirSync(cwd) };
}

try {
  // 0. The command line (issue #32): --help and --version exit 0 with nothing created; an unknown
  // option exits 2; MONGODB_URI without the optional `mongodb` peer names the package to install.
  const heldPort = await freePort();
  for (const bin of ['assetloom-server', 'assetloom-worker']) {
    const help = npxSync(bin, ['--help'], { PORT: String(heldPort) });
    check(
      help.status === 0 && help.stdout.includes(`Usage: npx ${bin}`),
      `${bin} --help exits 0:\n${help.stderr}`,
    );
    check(help.files.length === 0, `${bin} --help created nothing (found ${help.files.join(', ')})`);
    const version = npxSync(bin, ['--version']);
    check(
      version.status === 0 && version.stdout === `${installed.version}\n`,
      `${bin} --version prints ${installed.version}`,
    );
    const unknown = npxSync(bin, ['--port', '1']);
    check(
      unknown.status === 2 && unknown.stderr.includes('"--port"'),
      `${bin} --port exits 2:\n${unknown.stderr}`,
    );
  }
  check(!existsSync(join(here, 'node_modules/mongodb')), 'mongodb is not installed with the server');
  check(!existsSync(join(here, 'node_modules/@aws-sdk')), '@aws-sdk is not installed with the server');
  const noDriver = npxSync('assetloom-server', [], { MONGODB_URI: 'mongodb://127.0.0.1:9/x', PORT: '0' });
  check(
    noDriver.status === 1 &&
      noDriver.stderr.includes('npm install mongodb@^6.20.0') &&
      !noDriver.stdout.includes('"stack"'),
    `MONGODB_URI without mongodb names the package to install:\n${noDriver.stdout}\n${noDriver.stderr}`,
  );
  check(
    !existsSync(join(here, 'node_modules/@assetloom/mcp')),
    '@assetloom/mcp is not installed with the server',
  );
  const noMcp = npxSync('assetloom-server', [], { MCP_ENABLED: 'true', PORT: '0' });
  check(
    noMcp.status === 1 &&
      noMcp.stderr.includes('npm install ./assetloom-packages/assetloom-mcp.tgz') &&
      !noMcp.stdout.includes('"stack"'),
    `MCP_ENABLED without @assetloom/mcp names the line to install:\n${noMcp.stdout}\n${noMcp.stderr}`,
  );
  // sharp is an optional peer (issue #41): not installed by the README's server line; asked for, it is named
  check(!existsSync(join(here, 'node_modules/sharp')), 'sharp is not installed with the server');
  const noSharp = npxSync('assetloom-server', [], { UPLOAD_DECODER: 'sharp', PORT: '0' });
  check(
    noSharp.status === 1 &&
      noSharp.stderr.includes('npm install sharp@') &&
      !noSharp.stdout.includes('"stack"'),
    `UPLOAD_DECODER=sharp without sharp names the line to install:\n${noSharp.stdout}\n${noSharp.stderr}`,
  );
  console.log(
    'ok: --help, --version, an unknown option, MONGODB_URI without mongodb, MCP_ENABLED without @assetloom/mcp and UPLOAD_DECODER=sharp without sharp installed',
  );

  // 1. `npx assetloom-server` on its embedded defaults (embedded store, files, in-process worker).
  const dataDir = mkdtempSync(join(tmpdir(), 'assetloom-bins-'));
  const port = await freePort();
  // MONGODB_URI emptied: the runner's (for step 2) would otherwise make this run on MongoDB.
  const embedded = npx(
    'assetloom-server',
    { PORT: String(port), DATA_DIR: dataDir, MONGODB_URI: '' },
    'listening',
  );
  const listening = await embedded.ready;
  const base = `http://127.0.0.1:${port}`;
  check(listening.url === base, `listening on ${base}`);
  const health = await api(base, 'GET', '/api/v1/health');
  check(health.status === 200 && health.body.data.status === 'ok', 'GET /api/v1/health answers ok');
  check((await api(base, 'GET', '/api/v1/ready')).status === 200, 'GET /api/v1/ready answers 200');
  await generateAndWait(base, 'embedded');
  await uploadsWithoutSharp(base, embedded.output);
  await embedded.stop();
  console.log(
    'ok: npx assetloom-server on the embedded defaults answered health, generated a sprite, took a PNG upload and refused a JPEG, its log naming sharp',
  );

  // 2. On a shared MongoDB: an API process without a worker, and `npx assetloom-worker` claims its tasks.
  const mongoUri = process.env.MONGODB_URI;
  check(mongoUri, 'the runner gives MONGODB_URI');
  // mongodb is an optional peer of the server: a MongoDB deployment installs it beside the server.
  const driver = spawnSync(
    'npm',
    ['install', '--no-audit', '--no-fund', '--loglevel=error', '--prefer-offline', 'mongodb@^6.20.0'],
    {
      cwd: here,
      encoding: 'utf8',
    },
  );
  check(driver.status === 0, `npm install mongodb failed:\n${driver.stderr}`);
  const shared = {
    MONGODB_URI: mongoUri,
    MONGODB_DB: `bins_${Date.now().toString(36)}`,
    DATA_DIR: mkdtempSync(join(tmpdir(), 'assetloom-bins-objects-')),
    WORKER_POLL_MS: '50',
  };
  const apiPort = await freePort();
  const apiOnly = npx(
    'assetloom-server',
    { ...shared, PORT: String(apiPort), WORKER_IN_PROCESS: 'false' },
    'listening',
  );
  const worker = npx('assetloom-worker', shared, 'worker started');
  await Promise.all([apiOnly.ready, worker.ready]);
  const apiBase = `http://127.0.0.1:${apiPort}`;
  await generateAndWait(apiBase, 'worker');
  check(/"msg":"task completed"/.test(worker.output()), 'the worker process ran the task');
  check(!/"msg":"task completed"/.test(apiOnly.output()), 'the API process ran no task');
  await Promise.all([apiOnly.stop(), worker.stop()]);
  console.log('ok: npx assetloom-worker claimed and ran the task submitted to the API process on MongoDB');
} finally {
  for (const child of children) {
    try {
      process.kill(-child.pid, 'SIGKILL');
    } catch {}
  }
}
