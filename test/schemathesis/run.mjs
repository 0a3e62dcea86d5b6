#!/usr/bin/env node
/**
 * `pnpm test:fuzz`: Schemathesis (pinned in scripts/python-tools.sh, installed in .tools/venv)
 * against a real reference server listening on 127.0.0.1 (free port, embedded store, temporary
 * data folder), once per contract: openapi/asset-api.yaml (Bearer token) and
 * openapi/review-auth.yaml (a real `review_sid` session cookie plus the same-origin headers the
 * CSRF rule reads). Before the runs it makes real resources (a user, a project, a completed task
 * with its stored asset, a second project to delete, a second user whose password may change) and
 * hands them to Schemathesis through a generated config file, so every operation also meets
 * values that exist. Any failure fails the command; Schemathesis prints its own reproduction
 * (`curl …`) for each one.
 *
 * Environment: FUZZ_MAX_EXAMPLES (default 100), FUZZ_SEED (default 14), FUZZ_WORKERS (default 2),
 * FUZZ_ONLY=asset-api|review-auth, FUZZ_OPERATIONS=<operationId,…> (only those), FUZZ_KEEP=1 keeps the temporary folder (server log, reports).
 * With CI=true a missing .tools/venv fails the run; elsewhere it is installed first.
 */
import { spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { existsSync } from 'node:fs';
import { mkdir, mkdtemp, rm, writeFile } from 'node:fs/promises';
import { createServer } from 'node:http';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { restateBanner } from './banner.mjs';

const here = dirname(fileURLToPath(import.meta.url));
const root = join(here, '..', '..');
const serverDir = join(root, 'reference-server');
const venvBin = join(root, '.tools', 'venv', 'bin');
const st = join(venvBin, 'st');

const MAX_EXAMPLES = positiveInt('FUZZ_MAX_EXAMPLES', 100);
const SEED = positiveInt('FUZZ_SEED', 14);
const WORKERS = positiveInt('FUZZ_WORKERS', 2);
const ONLY = process.env.FUZZ_ONLY ?? '';
const OPERATIONS = (process.env.FUZZ_OPERATIONS ?? '').split(',').filter((id) => id !== '');
const CI = /^(1|true|yes)$/i.test(process.env.CI ?? '');

function say(message) {
  process.stdout.write(`[assetloom/fuzz] ${message}\n`);
}

function die(message) {
  process.stderr.write(`[assetloom/fuzz] error: ${message}\n`);
  process.exit(1);
}

function positiveInt(name, fallback) {
  const raw = process.env[name];
  if (raw === undefined || raw === '') return fallback;
  if (!/^\d+$/.test(raw) || Number(raw) < 1)
    die(`${name} must be a positive integer (got ${JSON.stringify(raw)})`);
  return Number(raw);
}

/** The venv with the pinned Schemathesis: required in CI, installed on demand elsewhere. */
function ensureTools() {
  const check = () =>
    existsSync(st) &&
    spawnSync(join(root, 'scripts', 'python-tools.sh'), ['--check'], { stdio: 'ignore' }).status === 0;
  if (check()) return;
  if (CI) {
    die(
      'Schemathesis is not installed in .tools/venv (or not at the pinned version). Run `bash scripts/python-tools.sh` ' +
        '(bootstrap.sh --test does) before `pnpm test:fuzz`; CI never skips the fuzzer.',
    );
  }
  say('installing the pinned Schemathesis into .tools/venv (scripts/python-tools.sh)');
  const installed = spawnSync('bash', [join(root, 'scripts', 'python-tools.sh')], { stdio: 'inherit' });
  if (installed.status !== 0 || !check()) die('scripts/python-tools.sh failed; see its output above');
}

/** Spawns the real server (src/main.ts through tsx) and resolves with its URL once it logs `listening`. */
async function startServer(dataDir, logFile, receiverHost) {
  const env = {
    PATH: process.env.PATH ?? '',
    HOME: process.env.HOME ?? dataDir,
    NODE_ENV: 'test',
    HOST: '127.0.0.1',
    PORT: '0',
    DATA_DIR: dataDir,
    JWT_SECRET: randomBytes(48).toString('base64'),
    SCRYPT_COST: '10',
    LOG_LEVEL: 'info',
    LOG_FLUSH_MS: '0',
    // Thousands of requests from one client: the limits stay on, far above what the run sends, so
    // the fuzzer meets them only where it asks for them.
    LOGIN_MAX_FAILURES: '10000',
    LOGIN_IP_MAX_FAILURES: '100000',
    REGISTER_IP_MAX: '100000',
    PASSWORD_HASH_PER_CLIENT: '1000',
    // Per-user budgets (decision 0032): the task size stays bounded (the fuzzer may ask for the
    // largest animations), the others far above what the run sends.
    USER_MAX_PIXELS_IN_FLIGHT: '0',
    USER_MAX_PROJECTS: '100000',
    USER_MAX_STORAGE_BYTES: '0',
    GENERATE_MAX_REQUESTS: '100000',
    // Generation kept small and quick: tasks the fuzzer submits finish while it runs.
    WORKER_CONCURRENCY: '2',
    // Webhooks the fuzzer registers may only reach the loopback receiver this run starts: every
    // other host is refused at registration (403) and at delivery, before any DNS lookup, so the
    // run sends nothing off this machine.
    WEBHOOK_ALLOW_PRIVATE_TARGETS: 'true',
    WEBHOOK_ALLOWED_HOSTS: receiverHost,
    WEBHOOK_RETRY_BASE_MS: '1000',
  };
  const child = spawn(process.execPath, ['--import', 'tsx', join(serverDir, 'src', 'main.ts')], {
    cwd: serverDir,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const log = [];
  const errors = [];
  const exited = new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));
  child.stderr.on('data', (chunk) => log.push(String(chunk)));
  const lines = createInterface({ input: child.stdout });
  const url = await new Promise((resolve, reject) => {
    const timer = setTimeout(
      () => reject(new Error(`the server did not listen within 60 s:\n${tail(log)}`)),
      60_000,
    );
    lines.on('line', (line) => {
      log.push(`${line}\n`);
      if (log.length > 20_000) log.splice(0, 10_000);
      let record;
      try {
        record = JSON.parse(line);
      } catch {
        return;
      }
      if (record.level >= 50) errors.push(line);
      if (record.msg === 'listening' && typeof record.url === 'string') {
        clearTimeout(timer);
        resolve(record.url);
      }
    });
    exited.then(({ code, signal }) => {
      clearTimeout(timer);
      reject(new Error(`the server exited (${code ?? signal}) before listening:\n${tail(log)}`));
    });
  });
  return {
    url,
    errors,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) child.kill('SIGTERM');
      const timer = setTimeout(() => child.kill('SIGKILL'), 15_000);
      const result = await exited;
      clearTimeout(timer);
      await writeFile(logFile, log.join(''));
      return result;
    },
  };
}

function tail(chunks) {
  return chunks.join('').slice(-4000);
}

async function call(base, method, path, { body, headers = {} } = {}) {
  const res = await fetch(`${base}${path}`, {
    method,
    redirect: 'manual',
    headers: { ...(body === undefined ? {} : { 'content-type': 'application/json' }), ...headers },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  const text = await res.text();
  let json;
  try {
    json = JSON.parse(text);
  } catch {
    json = undefined;
  }
  return { status: res.status, json, headers: res.headers };
}

async function expectOk(what, promise, status = 200) {
  const res = await promise;
  if (res.status !== status)
    throw new Error(`setting up the fuzz data: ${what} answered ${res.status}: ${JSON.stringify(res.json)}`);
  return res;
}

/** A loopback receiver for the webhooks the run registers: it answers every delivery 204. */
async function startReceiver() {
  let count = 0;
  const server = createServer((req, res) => {
    req.resume();
    req.on('end', () => {
      count += 1;
      res.statusCode = 204;
      res.end();
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address();
  return {
    host: '127.0.0.1',
    url: `http://127.0.0.1:${port}/assetloom-webhooks`,
    received: () => count,
    close: () => new Promise((resolve) => server.close(() => resolve())),
  };
}

/** Real resources of the asset API, made through the API itself. */
async function seedAssetApi(base, receiverUrl) {
  const suffix = randomBytes(4).toString('hex');
  const password = `fuzz-${randomBytes(9).toString('base64url')}`;
  const user = async (name) => {
    await expectOk(
      `register ${name}`,
      call(base, 'POST', '/auth/register', { body: { username: name, password } }),
      201,
    );
    const login = await expectOk(
      `login ${name}`,
      call(base, 'POST', '/auth/login', { body: { username: name, password } }),
    );
    return login.json.data.token;
  };
  const token = await user(`fz${suffix}`);
  const passwordToken = await user(`fp${suffix}`);
  const auth = { authorization: `Bearer ${token}` };
  const project = await expectOk(
    'create project',
    call(base, 'POST', '/api/v1/projects', {
      headers: auth,
      body: { name: 'Fuzz', style: { artStyle: 'pixel' } },
    }),
  );
  const projectId = project.json.data.id;
  const doomed = await expectOk(
    'create the project to delete',
    call(base, 'POST', '/api/v1/projects', { headers: auth, body: { name: 'Fuzz (deleted)' } }),
  );
  const generated = await expectOk(
    'generate',
    call(base, 'POST', '/api/v1/generate', {
      headers: auth,
      body: { projectId, prompt: 'a small slime', assetType: 'ui', params: { resolution: 16 } },
    }),
  );
  const taskId = generated.json.data.taskId;
  const deadline = Date.now() + 60_000;
  for (;;) {
    const task = await expectOk('read task', call(base, 'GET', `/api/v1/tasks/${taskId}`, { headers: auth }));
    if (task.json.data.status === 'completed') break;
    if (task.json.data.status === 'failed') throw new Error(`the seed task failed: ${task.json.data.error}`);
    if (Date.now() > deadline) throw new Error('the seed task did not complete within 60 s');
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  const assets = await expectOk(
    'task assets',
    call(base, 'GET', `/api/v1/tasks/${taskId}/assets`, { headers: auth }),
  );
  const asset = assets.json.data.assets[0];
  if (asset === undefined) throw new Error('the seed task completed without assets');
  const signed = new URL(asset.url, base);
  const webhook = await expectOk(
    'register a webhook',
    call(base, 'POST', `/api/v1/projects/${projectId}/webhooks`, {
      headers: auth,
      body: { url: receiverUrl, events: ['task.completed', 'task.failed'], description: 'fuzz receiver' },
    }),
  );
  // Characters (issue #40): one every operation reads, one the fuzzer may delete.
  const character = await expectOk(
    'create a character',
    call(base, 'POST', `/api/v1/projects/${projectId}/characters`, {
      headers: auth,
      body: { name: 'Fuzz hero', prompt: 'a knight', size: 32, seed: 3 },
    }),
  );
  const doomedCharacter = await expectOk(
    'create the character to delete',
    call(base, 'POST', `/api/v1/projects/${projectId}/characters`, {
      headers: auth,
      body: { name: 'Fuzz (deleted)', prompt: 'a goblin', size: 32, seed: 4 },
    }),
  );
  return {
    characterId: character.json.data.id,
    doomedCharacterId: doomedCharacter.json.data.id,
    webhookId: webhook.json.data.id,
    receiverUrl,
    token,
    passwordToken,
    password,
    projectId,
    doomedProjectId: doomed.json.data.id,
    taskId,
    key: asset.key,
    fileKeyPath: signed.pathname.slice('/files/'.length),
    e: Number(signed.searchParams.get('e')),
    fileToken: signed.searchParams.get('token'),
  };
}

/** A registered review-helper user with a live session: the cookie and the same-origin headers. */
async function seedReviewAuth(base) {
  const email = `fuzz-${randomBytes(4).toString('hex')}@example.test`;
  const password = `fuzz-${randomBytes(9).toString('base64url')}`;
  const sameOrigin = { origin: base, 'sec-fetch-site': 'same-origin' };
  await expectOk(
    'review register',
    call(base, 'POST', '/api/auth/register', { headers: sameOrigin, body: { email, password } }),
  );
  const login = await expectOk(
    'review login',
    call(base, 'POST', '/api/auth/login', { headers: sameOrigin, body: { email, password } }),
  );
  const cookie = (login.headers.getSetCookie?.() ?? [])
    .map((c) => c.split(';')[0])
    .find((c) => c.startsWith('review_sid='));
  if (cookie === undefined) throw new Error('review login set no review_sid cookie');
  return { email, password, sessionId: cookie.slice('review_sid='.length), sameOrigin };
}

const toml = (value) => JSON.stringify(value);

/** One config file per contract: top-level settings first, then tables (TOML's order). */
function commonConfig({ url, seed, reportDir }) {
  return [
    `seed = ${seed}`,
    'color = false',
    `workers = ${WORKERS}`,
    `base-url = ${toml(url)}`,
    'request-timeout = 30',
    '',
    '[reports]',
    `directory = ${toml(reportDir)}`,
    '',
    '[output.sanitization]',
    'enabled = false',
    '',
    '[generation]',
    `max-examples = ${MAX_EXAMPLES}`,
    '',
    // Every check, as a default that an operation's own table may turn off (`--checks all` on the
    // command line would override the operations' tables).
    '[checks]',
    'enabled = true',
    '',
  ];
}

function assetApiConfig(url, seed, reportDir, data) {
  const lines = commonConfig({ url, seed, reportDir });
  lines.push(
    '[headers]',
    `Authorization = ${toml(`Bearer ${data.token}`)}`,
    '',
    // Real values, each drawn instead of a generated one most of the time.
    '[dictionaries]',
    `projects = { values = [${toml(data.projectId)}] }`,
    `tasks = { values = [${toml(data.taskId)}] }`,
    `keys = { values = [${toml(data.key)}] }`,
    `filekeys = { values = [${toml(data.fileKeyPath)}] }`,
    `expiries = { values = [${data.e}] }`,
    `filetokens = { values = [${toml(data.fileToken)}] }`,
    `passwords = { values = [${toml(data.password)}] }`,
    `doomed = { values = [${toml(data.doomedProjectId)}] }`,
    `webhooks = { values = [${toml(data.webhookId)}] }`,
    `characters = { values = [${toml(data.characterId)}] }`,
    `doomedcharacters = { values = [${toml(data.doomedCharacterId)}] }`,
    `receivers = { values = [${toml(data.receiverUrl)}] }`,
    '',
    '[parameters]',
    '"path.projectId" = { dictionary = "projects", probability = 0.8 }',
    '"path.taskId" = { dictionary = "tasks", probability = 0.8 }',
    '"path.webhookId" = { dictionary = "webhooks", probability = 0.8 }',
    '"path.characterId" = { dictionary = "characters", probability = 0.8 }',
    '"body.url" = { dictionary = "receivers", probability = 0.5 }',
    '"query.key" = { dictionary = "keys", probability = 0.6 }',
    '"path.key" = { dictionary = "filekeys", probability = 0.9 }',
    '"query.e" = { dictionary = "expiries", probability = 0.9 }',
    '"query.token" = { dictionary = "filetokens", probability = 0.9 }',
    '"body.projectId" = { dictionary = "projects", probability = 0.8 }',
    '"body.oldPassword" = { dictionary = "passwords", probability = 0.8 }',
    '"body.newPassword" = { dictionary = "passwords", probability = 0.5 }',
    '',
    // The project the fuzzer may delete is not the one every other operation reads (the stateful
    // phase deletes the projects it creates through the createProject links).
    '[[operations]]',
    'include-operation-id = "deleteProject"',
    'parameters = { "path.projectId" = { dictionary = "doomed", probability = 0.5 } }',
    'generation.allow-extra-parameters = false',
    '',
    // The contract says unknown query parameters and headers are ignored (info.description), so
    // requests that only add some are not invalid: no extra parameters for the operations without
    // a body. Operations with a body keep them, so unknown body fields are still sent (and refused).
    '[[operations]]',
    `include-operation-id = ${toml(['getHealth', 'getMe', 'listProjects', 'getProject', 'listProjectTasks', 'getProjectStyle', 'getTask', 'getTaskAssets', 'downloadAsset', 'getSignedFile'])}`,
    'generation.allow-extra-parameters = false',
    '',
    // Characters (issue #40): the one the fuzzer may delete is not the one the others read. A
    // character needs a prompt or an upload, a free-text action needs a model provider, and its
    // tasks are budgeted and rate-limited as generate's: rules the schema states in words.
    '[[operations]]',
    'include-operation-id = "deleteCharacter"',
    'parameters = { "path.characterId" = { dictionary = "doomedcharacters", probability = 0.5 } }',
    'generation.allow-extra-parameters = false',
    '',
    '[[operations]]',
    `include-operation-id = ${toml(['getCharacter', 'listCharacters', 'listCharacterTasks'])}`,
    'generation.allow-extra-parameters = false',
    '',
    '[[operations]]',
    `include-operation-id = ${toml(['createCharacter', 'animateCharacter', 'rotateCharacter'])}`,
    'checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "403", "404", "413", "429"]',
    '',
    // A character drawn from an upload names it in the body: an unknown one is the contract's 404
    // 上传不存在 (reason upload_not_found, as for generate's image inputs), which Schemathesis's
    // ST302 reads as the project in the path (just created through a link) being missing. The
    // project's own absence stays covered: getProject, listProjectTasks and the other project
    // paths keep the check, and a 404 here always names its reason.
    '[[operations]]',
    'include-operation-id = "createCharacter"',
    'checks.ensure_resource_availability.enabled = false',
    '',
    // A password change revokes every earlier token of its user: it runs as a user of its own.
    // Spec 000 answers a wrong old password with 400 (原密码不正确), a rule of stored state that no
    // schema can state: for this operation a 400 on schema-valid data is expected.
    '[[operations]]',
    'include-operation-id = "changePassword"',
    `headers = { Authorization = ${toml(`Bearer ${data.passwordToken}`)} }`,
    'checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "401", "403", "404", "429"]',
    '',
    // A task drawing more than TASK_MAX_PIXELS (width × height × frames, decision 0032) is refused
    // with 413, a rule over several fields that JSON Schema cannot state.
    '[[operations]]',
    'include-operation-id = "generate"',
    'checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "403", "404", "413", "429"]',
    '',
    // Usernames and e-mails refuse control, format (zero-width, bidi), separator and unassigned
    // characters (decision 0027), Unicode classes JSON Schema cannot state portably: for
    // registration a 400 on schema-valid data is expected.
    '[[operations]]',
    'include-operation-id = "register"',
    'checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "409", "429"]',
    '',
    // An upload's schema is any bytes (format: binary, raw or as a multipart file): that they must
    // decode as a PNG, JPEG, WebP or GIF within the size limits is said in words (decision 0034), so
    // for uploads a 400 图片无法读取 or a 413 on schema-valid data is expected.
    '[[operations]]',
    'include-operation-id = "uploadImage"',
    'checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "401", "403", "413", "429"]',
    '',
    // The WebSocket entry: a plain GET (all an HTTP fuzzer sends) passes the credential, id and
    // ownership checks and is then refused with the contract's 400, as no Upgrade header came.
    '[[operations]]',
    'include-operation-id = "streamTaskProgress"',
    'checks.positive_data_acceptance.expected-statuses = ["400", "401", "403", "404"]',
    'generation.allow-extra-parameters = false',
    '',
  );
  return lines.join('\n');
}

function reviewAuthConfig(url, seed, reportDir, data) {
  const lines = commonConfig({ url, seed, reportDir });
  lines.push(
    '[headers]',
    `Origin = ${toml(data.sameOrigin.origin)}`,
    `Sec-Fetch-Site = ${toml(data.sameOrigin['sec-fetch-site'])}`,
    `Cookie = ${toml(`review_sid=${data.sessionId}`)}`,
    '',
    '[dictionaries]',
    `emails = { values = [${toml(data.email)}] }`,
    `passwords = { values = [${toml(data.password)}] }`,
    '',
    '[parameters]',
    '"body.email" = { dictionary = "emails", probability = 0.3 }',
    '"body.password" = { dictionary = "passwords", probability = 0.3 }',
    '',
    // Spec 001 counts password lengths in UTF-8 bytes, which JSON Schema cannot state: the schema
    // gives the implied character bounds, so a schema-valid password of 2-5 characters may still
    // hold fewer than 6 bytes (400 密码长度至少为 6 位), and one of up to 1024 characters more
    // than 1024 bytes (400 邮箱和密码为必填项).
    '[[operations]]',
    'include-operation-id = ["reviewRegister", "reviewLogin"]',
    'checks.positive_data_acceptance.expected-statuses = ["2xx", "400", "401", "403", "409", "429"]',
    '',
  );
  return lines.join('\n');
}

async function runSchemathesis(name, spec, configFile, reportDir) {
  say(`schemathesis: ${name} (${spec}), max ${MAX_EXAMPLES} examples per operation, seed ${SEED}`);
  const args = [
    '--config-file',
    configFile,
    'run',
    join(root, spec),
    '--phases',
    'examples,coverage,fuzzing,stateful',
    '--report',
    'junit,ndjson',
    '--report-dir',
    reportDir,
    // FUZZ_OPERATIONS=a,b: only these operationIds (a quick run over what a change touched).
    ...OPERATIONS.flatMap((id) => ['--include-operation-id', id]),
  ];
  const child = spawn(st, args, {
    // Schemathesis keeps a cache folder where it runs: the temporary folder, not the checkout.
    cwd: dirname(configFile),
    stdio: ['ignore', 'pipe', 'pipe'],
    env: {
      ...process.env,
      PATH: `${venvBin}:${process.env.PATH ?? ''}`,
      NO_COLOR: '1',
      SCHEMATHESIS_TELEMETRY: 'false',
      // Generation hooks for the rules the schema cannot state (assetloom_hooks.py beside this file).
      SCHEMATHESIS_HOOKS: 'assetloom_hooks',
      PYTHONPATH: [here, process.env.PYTHONPATH].filter(Boolean).join(':'),
    },
  });
  const seen = { failures: false, astBug: false };
  const relayed = [
    relayLines(child.stdout, process.stdout, name, seen),
    relayLines(child.stderr, process.stderr, name, seen),
  ];
  const code = await new Promise((resolve) =>
    child.once('exit', (c, signal) => resolve(c ?? (signal ? 1 : 0))),
  );
  await Promise.all(relayed);
  // Only runtime errors of CPython 3.11's ast.parse under threads ("AST constructor recursion depth
  // mismatch", gh-106905), hit when Hypothesis describes a lambda on two worker threads at once: not
  // a finding about the API. The run is repeated once; a failure found by a check is never retried.
  return { code, toolBug: code !== 0 && seen.astBug && !seen.failures };
}

async function relayLines(input, output, name, seen) {
  for await (const line of createInterface({ input, crlfDelay: Number.POSITIVE_INFINITY })) {
    if (line.includes('FAILURES')) seen.failures = true;
    if (line.includes('AST constructor recursion depth mismatch')) seen.astBug = true;
    output.write(`${restateBanner(line, name)}\n`);
  }
}

async function main() {
  ensureTools();
  const work = await mkdtemp(join(tmpdir(), 'assetloom-fuzz-'));
  const dataDir = join(work, 'data');
  await mkdir(dataDir);
  const logFile = join(work, 'server.log');
  let server;
  let failed = false;
  const receiver = await startReceiver();
  try {
    server = await startServer(dataDir, logFile, receiver.host);
    say(`server listening at ${server.url} (embedded store, data in ${dataDir})`);
    const targets = [];
    if (ONLY === '' || ONLY === 'asset-api') {
      const data = await seedAssetApi(server.url, receiver.url);
      say(`asset API seeded: project ${data.projectId}, completed task ${data.taskId}, asset ${data.key}`);
      targets.push({
        name: 'asset-api',
        spec: 'openapi/asset-api.yaml',
        config: assetApiConfig(server.url, SEED, join(work, 'asset-api'), data),
      });
    }
    if (ONLY === '' || ONLY === 'review-auth') {
      const data = await seedReviewAuth(server.url);
      say(`review auth seeded: user ${data.email} with a live session`);
      targets.push({
        name: 'review-auth',
        spec: 'openapi/review-auth.yaml',
        config: reviewAuthConfig(server.url, SEED, join(work, 'review-auth'), data),
      });
    }
    if (targets.length === 0) die(`FUZZ_ONLY must be asset-api or review-auth (got ${JSON.stringify(ONLY)})`);
    for (const target of targets) {
      const configFile = join(work, `${target.name}.toml`);
      await writeFile(configFile, target.config);
      let { code, toolBug } = await runSchemathesis(
        target.name,
        target.spec,
        configFile,
        join(work, target.name),
      );
      if (toolBug) {
        say(
          `${target.name}: only runtime errors of CPython's thread-unsafe ast.parse (gh-106905), no check failed: running it once more`,
        );
        ({ code } = await runSchemathesis(
          target.name,
          target.spec,
          configFile,
          join(work, `${target.name}-again`),
        ));
      }
      if (code !== 0) {
        failed = true;
        say(
          `schemathesis found failures in ${target.name} (exit ${code}); each is reproduced by the command printed above`,
        );
      } else {
        say(`${target.name}: 0 failures`);
      }
    }
  } finally {
    const result = await server?.stop();
    await receiver.close();
    say(`the loopback webhook receiver took ${receiver.received()} deliveries`);
    if (server !== undefined && server.errors.length > 0) {
      failed = true;
      say(`the server logged ${server.errors.length} error line(s); the first ones:`);
      for (const line of server.errors.slice(0, 5)) process.stdout.write(`${line.slice(0, 2000)}\n`);
    }
    if (result !== undefined && result.code !== 0) {
      failed = true;
      say(`the server did not stop cleanly (${result.code ?? result.signal})`);
    }
    if (failed || process.env.FUZZ_KEEP === '1') say(`server log and reports kept in ${work}`);
    else await rm(work, { recursive: true, force: true });
  }
  if (failed) process.exit(1);
}

main().catch((error) => {
  process.stderr.write(`[assetloom/fuzz] ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
