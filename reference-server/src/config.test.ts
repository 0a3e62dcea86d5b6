import { describe, expect, it } from 'vitest';
import { loadConfig } from './config.js';

const SECRET = 's'.repeat(32);

describe('loadConfig', () => {
  it('starts on the embedded defaults in development with a generated secret and a warning', () => {
    const result = loadConfig({}, '/srv/app');
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toMatchObject({
      nodeEnv: 'development',
      http: { port: 8080, host: '127.0.0.1', bodyLimitBytes: 65_536, secureCookies: false },
      store: { dataDir: '/srv/app/data', mongodbUri: null },
      auth: { jwtSecretGenerated: true, tokenTtlSeconds: 86_400, scryptLogN: 17 },
      generation: { maxQualityRetries: 2, llm: null },
      queue: { inProcess: true, concurrency: 2, leaseMs: 30_000, maxAttempts: 3 },
      logging: { flushMs: 100 },
      storage: { driver: 'fs', root: '/srv/app/data/objects', signedUrlTtlSeconds: 3600 },
    });
    expect(Buffer.byteLength(result.value.auth.jwtSecret)).toBeGreaterThanOrEqual(32);
    expect(result.warnings.join('\n')).toContain('JWT_SECRET');
  });

  it('reads every variable', () => {
    const result = loadConfig(
      {
        NODE_ENV: 'production',
        PORT: '9000',
        HOST: '0.0.0.0',
        DATA_DIR: '/var/lib/assetloom',
        MONGODB_URI: 'mongodb://db:27017',
        MONGODB_DB: 'prod_db',
        JWT_SECRET: SECRET,
        TOKEN_TTL_SECONDS: '3600',
        BODY_LIMIT_BYTES: '131072',
        LOG_LEVEL: 'warn',
        MAX_QUALITY_RETRIES: '3',
        TRUST_PROXY: 'true',
        PUBLIC_BASE_URL: 'https://assets.example.com',
        WORKER_IN_PROCESS: 'false',
        WORKER_CONCURRENCY: '4',
        TASK_LEASE_MS: '15000',
        WORKER_POLL_MS: '250',
        TASK_MAX_ATTEMPTS: '5',
        EVENT_POLL_MS: '100',
        LOG_FLUSH_MS: '0',
        SIGNED_URL_TTL_SECONDS: '600',
        LLM_BASE_URL: 'http://llm.internal/v1/',
        LLM_API_KEY: 'sk-test',
        LLM_MODEL: 'qwen-plus',
        LLM_TIMEOUT_MS: '5000',
        // as the assetloom-server bin sets it (decision 0043); libuv's 4 would lower the decode concurrency
        UV_THREADPOOL_SIZE: '8',
      },
      '/x',
    );
    expect(result.ok).toBe(true);
    if (!result.ok) return;
    expect(result.value).toMatchObject({
      nodeEnv: 'production',
      http: { port: 9000, host: '0.0.0.0', bodyLimitBytes: 131_072, trustProxy: true, secureCookies: true },
      store: { dataDir: '/var/lib/assetloom', mongodbUri: 'mongodb://db:27017', mongodbDb: 'prod_db' },
      auth: { jwtSecret: SECRET, jwtSecretGenerated: false, tokenTtlSeconds: 3600 },
      logging: { level: 'warn', flushMs: 0 },
      generation: {
        maxQualityRetries: 3,
        llm: { baseUrl: 'http://llm.internal/v1', apiKey: 'sk-test', model: 'qwen-plus', timeoutMs: 5000 },
      },
      queue: {
        inProcess: false,
        concurrency: 4,
        leaseMs: 15_000,
        pollMs: 250,
        maxAttempts: 5,
        eventPollMs: 100,
      },
      storage: { driver: 'fs', root: '/var/lib/assetloom/objects', signedUrlTtlSeconds: 600 },
    });
    expect(result.warnings).toEqual([]);
  });

  it.each([
    ['a missing secret in production', { NODE_ENV: 'production' }, 'JWT_SECRET'],
    ['a missing secret in test', { NODE_ENV: 'test' }, 'JWT_SECRET'],
    ['a short secret', { JWT_SECRET: 'short' }, 'JWT_SECRET'],
    ['a non-numeric port', { PORT: 'eighty' }, 'PORT'],
    ['a port out of range', { PORT: '70000' }, 'PORT'],
    ['a bad MONGODB_URI', { MONGODB_URI: 'http://db' }, 'MONGODB_URI'],
    ['a bad MONGODB_DB', { MONGODB_DB: 'a/b' }, 'MONGODB_DB'],
    ['a zero worker concurrency', { WORKER_CONCURRENCY: '0' }, 'WORKER_CONCURRENCY'],
    ['a non-boolean WORKER_IN_PROCESS', { WORKER_IN_PROCESS: 'maybe' }, 'WORKER_IN_PROCESS'],
    ['a tiny lease', { TASK_LEASE_MS: '10' }, 'TASK_LEASE_MS'],
    ['a non-URL LLM_BASE_URL', { LLM_BASE_URL: 'ftp://x' }, 'LLM_BASE_URL'],
    ['an unknown STORAGE_DRIVER', { STORAGE_DRIVER: 'tape' }, 'STORAGE_DRIVER'],
    ['an unknown NODE_ENV', { NODE_ENV: 'staging' }, 'NODE_ENV'],
    ['an unknown LOG_LEVEL', { LOG_LEVEL: 'loud' }, 'LOG_LEVEL'],
    ['a tiny body limit', { BODY_LIMIT_BYTES: '10' }, 'BODY_LIMIT_BYTES'],
    ['a negative LOG_FLUSH_MS', { LOG_FLUSH_MS: '-1' }, 'LOG_FLUSH_MS'],
    ['a non-numeric LOG_FLUSH_MS', { LOG_FLUSH_MS: 'soon' }, 'LOG_FLUSH_MS'],
    [
      'a weak scrypt cost in production',
      { NODE_ENV: 'production', JWT_SECRET: SECRET, SCRYPT_COST: '10' },
      'SCRYPT_COST',
    ],
    ['a non-boolean TRUST_PROXY', { TRUST_PROXY: 'maybe' }, 'TRUST_PROXY'],
    ['a non-boolean MCP_ENABLED', { MCP_ENABLED: 'sometimes' }, 'MCP_ENABLED'],
    ['a relative MCP_ALLOWED_FOLDERS', { MCP_ALLOWED_FOLDERS: '/srv/game,assets' }, 'MCP_ALLOWED_FOLDERS'],
  ])('refuses %s, naming the variable', (_case, env, variable) => {
    const result = loadConfig(env as Record<string, string>);
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.issues.map((issue) => issue.variable)).toContain(variable);
    expect(result.error.message).toMatch(/^\[assetloom\/server\] invalid configuration/);
  });

  it('reports every problem at once', () => {
    const result = loadConfig({ NODE_ENV: 'production', PORT: 'x', LOG_LEVEL: 'loud' });
    expect(result.ok).toBe(false);
    if (result.ok) return;
    expect(result.error.issues.map((issue) => issue.variable).sort()).toEqual([
      'JWT_SECRET',
      'LOG_LEVEL',
      'PORT',
    ]);
  });

  it('allows a lower scrypt cost outside production, with a warning', () => {
    const result = loadConfig({ NODE_ENV: 'test', JWT_SECRET: SECRET, SCRYPT_COST: '10' });
    expect(result.ok && result.value.auth.scryptLogN).toBe(10);
    expect(result.ok && result.warnings.join()).toContain('SCRYPT_COST');
  });
});
