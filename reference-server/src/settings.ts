/**
 * Every environment variable the server reads, defined once: name, group (the concern it
 * configures), type, default, bounds and description (decision 0041). `loadConfig` (config.ts) and
 * the image provider (image-provider.ts) read integer, boolean and string defaults and bounds from
 * here; the few settings with a parser of their own (PIPELINE_THREADS, the storage module's) are
 * defined and documented here too. The settings tables of docs/deployment.md are generated from it
 * (`pnpm run gen`; `pnpm run check:gen`, part of `pnpm test`, fails when the document differs).
 *
 * A definition with `row` shares the table row of the named one (`HOST`, `PORT`): the first of a
 * row carries its documentation (`doc`, `description`).
 */

/** What a setting configures. */
export type SettingGroup =
  | 'http'
  | 'logging'
  | 'store'
  | 'auth'
  | 'limits'
  | 'uploads'
  | 'storage'
  | 'queue'
  | 'generation'
  | 'webhooks'
  | 'metrics';

/** The sections of the settings in docs/deployment.md (§ 3), in their order there. */
export const DOC_SECTIONS = [
  'Process and HTTP',
  'Logs',
  'Database',
  'Authentication and secrets',
  'Object storage',
  'Generation: queue, workers, progress',
  'Webhooks',
  'Prompt optimizer (LLM) and image generator',
  'Operations',
] as const;

export type DocSection = (typeof DOC_SECTIONS)[number];

/** How a value is written: `int` (decimal digits, within `min`..`max`), `bool` (true/false, 1/0, yes/no, on/off), `list` (comma-separated), `secret` (a string never logged), `string`. */
export type SettingType = 'int' | 'bool' | 'string' | 'list' | 'secret';

export interface SettingDefinition {
  readonly name: string;
  readonly group: SettingGroup;
  readonly type: SettingType;
  /** The value when unset or blank (absent: none, or one that depends on other settings — see `doc.shown`). */
  readonly default?: number | boolean | string;
  /** Bounds of an `int`, inclusive. */
  readonly min?: number;
  readonly max?: number;
  /** The row of docs/deployment.md this setting heads: its section, the default as shown, and the names cell when it is not the plain list of names. */
  readonly doc?: { readonly section: DocSection; readonly shown: string; readonly label?: string };
  /** What the setting does (Markdown; the table's third column). */
  readonly description?: string;
  /** The setting whose row this one shares. */
  readonly row?: string;
}

export const SETTINGS = [
  {
    name: 'NODE_ENV',
    group: 'http',
    type: 'string',
    default: 'development',
    doc: { section: 'Process and HTTP', shown: '`development`' },
    description:
      '`development`, `test` or `production`; anything but development requires `JWT_SECRET`, sets `Secure` on cookies and refuses `SCRYPT_COST` below 17 (production)',
  },
  {
    name: 'HOST',
    group: 'http',
    type: 'string',
    default: '127.0.0.1',
    doc: { section: 'Process and HTTP', shown: '`127.0.0.1`, `8080`' },
    description: 'listen address (`0.0.0.0` in containers); `PORT=0` picks a free port',
  },
  { name: 'PORT', group: 'http', type: 'int', default: 8080, min: 0, max: 65535, row: 'HOST' },
  {
    name: 'UV_THREADPOOL_SIZE',
    group: 'http',
    type: 'int',
    default: 4,
    min: 1,
    max: 1024,
    doc: { section: 'Process and HTTP', shown: '`8` (set by the bins when unset)' },
    description:
      "libuv's thread pool, shared by file reads and writes, the embedded store's appends, `crypto.scrypt` (logins) and picture decoding (sharp). `assetloom-server`, `assetloom-worker` and the Docker image set 8 when it is unset (it must be set before the pool is first used, so only at start); `node dist/main.js` leaves libuv's 4. Decoding takes at most `UPLOAD_DECODE_CONCURRENCY` threads and password hashing `PASSWORD_HASH_CONCURRENCY`, leaving the rest to I/O ([decision 0043](decisions/0043-image-input-costs.md))",
  },
  {
    name: 'BODY_LIMIT_BYTES',
    group: 'http',
    type: 'int',
    default: 64 * 1024,
    min: 1024,
    max: 16 * 1024 * 1024,
    doc: { section: 'Process and HTTP', shown: '`65536`' },
    description: 'larger request bodies answer 413 (1 KB – 16 MB)',
  },
  {
    name: 'TRUST_PROXY',
    group: 'http',
    type: 'bool',
    default: false,
    doc: { section: 'Process and HTTP', shown: '`false`' },
    description:
      "take the client IP (rate limits) from `X-Forwarded-For`, and the request's scheme and host (the WebSocket's Origin check; signed URLs outside production) from `X-Forwarded-Proto/-Host`; only behind a proxy you control (compose: true)",
  },
  {
    name: 'STUDIO_DIR',
    group: 'http',
    type: 'string',
    doc: { section: 'Process and HTTP', shown: 'the studio build shipped in the package (`dist/studio`)' },
    description: 'a folder with another build of the web studio served at `/studio`',
  },
  {
    name: 'SHUTDOWN_GRACE_MS',
    group: 'http',
    type: 'int',
    default: 10_000,
    min: 0,
    max: 120_000,
    doc: { section: 'Process and HTTP', shown: '`10000`' },
    description:
      'SIGTERM waits this long for in-flight requests and running tasks; running tasks past it are handed back to the queue',
  },
  {
    name: 'CORS_ORIGINS',
    group: 'http',
    type: 'list',
    doc: { section: 'Process and HTTP', shown: 'empty (CORS off)' },
    description:
      'pages of these origins may call the API from the browser (CORS): comma-separated exact origins such as `https://app.example.com,http://localhost:5173` (scheme, host, port; no path), or `*` for any page (not with credentials). Applies to `/api/`, `/auth/` and the `/files/` downloads, never to `/docs`, `/studio` or the review helper; other origins get no CORS header (their requests are still answered). `Retry-After`, `X-Request-Id`, `Content-Language`, `X-Not-Ready`, `Content-Disposition` and `Content-Length` are exposed. The alternative is a dev-server proxy (server README)',
  },
  {
    name: 'CORS_CREDENTIALS',
    group: 'http',
    type: 'bool',
    default: false,
    doc: { section: 'Process and HTTP', shown: '`false`' },
    description:
      "`Access-Control-Allow-Credentials: true` for the listed origins: their pages may send cookies (`credentials: 'include'`), so the login cookie also opens the progress WebSocket from them. Without it, pages send the token as `Authorization: Bearer` and the SDK polls for progress",
  },
  {
    name: 'CORS_MAX_AGE_SECONDS',
    group: 'http',
    type: 'int',
    default: 600,
    min: 0,
    max: 86_400,
    doc: { section: 'Process and HTTP', shown: '`600`' },
    description:
      'how long browsers may reuse a preflight answer (`Access-Control-Max-Age`; Chromium caps it at 7200); 0 sends none',
  },
  {
    name: 'MCP_ENABLED',
    group: 'http',
    type: 'bool',
    default: false,
    doc: { section: 'Process and HTTP', shown: '`false`' },
    description:
      "serve the MCP server for coding agents (`@assetloom/mcp`, installed beside the server) over Streamable HTTP at `/mcp`, behind the same `Authorization: Bearer` token as the API: its tools act as the token's user. Off: `/mcp` answers 404",
  },
  {
    name: 'MCP_ALLOWED_FOLDERS',
    group: 'http',
    type: 'list',
    doc: { section: 'Process and HTTP', shown: 'empty (no files written)' },
    description:
      "absolute folders on the server's machine (comma-separated, each existing) that the `/mcp` tools may write downloads into and read pictures from, for any signed-in user — for a server on your own machine; empty: the tools write nothing and the files stay readable as MCP resources",
  },
  {
    name: 'LOG_LEVEL',
    group: 'logging',
    type: 'string',
    doc: { section: 'Logs', shown: '`info` (`silent` under `NODE_ENV=test`)' },
    description: '`fatal`, `error`, `warn`, `info`, `debug`, `trace`, `silent`',
  },
  {
    name: 'LOG_FLUSH_MS',
    group: 'logging',
    type: 'int',
    default: 100,
    min: 0,
    max: 10_000,
    doc: { section: 'Logs', shown: '`100`' },
    description:
      'lines are buffered up to 8 KB or this many ms and flushed on exit; `0` writes each line at once (a SIGKILL loses at most this window)',
  },
  {
    name: 'MONGODB_URI',
    group: 'store',
    type: 'string',
    doc: { section: 'Database', shown: 'unset' },
    description:
      '`mongodb://` or `mongodb+srv://`; MongoDB ≥ 6 (replica set recommended) or FerretDB v1. Unset: the embedded store',
  },
  {
    name: 'MONGODB_DB',
    group: 'store',
    type: 'string',
    default: 'assetloom',
    doc: { section: 'Database', shown: '`assetloom`' },
    description: 'database name (1–63 letters, digits, `_`, `-`)',
  },
  {
    name: 'DATA_DIR',
    group: 'store',
    type: 'string',
    default: './data',
    doc: { section: 'Database', shown: '`./data`' },
    description:
      "the embedded store's NeDB files (when `MONGODB_URI` is unset) and the filesystem object storage (`DATA_DIR/objects`)",
  },
  {
    name: 'USER_CACHE_MS',
    group: 'store',
    type: 'int',
    default: 1_000,
    min: 0,
    max: 60_000,
    doc: { section: 'Database', shown: '`1000`' },
    description:
      'how long a request may reuse a user record read before (`0`: always read); a token revoked by a password change on another API process stays valid on this one that long at most (decision 0024)',
  },
  {
    name: 'JWT_SECRET',
    group: 'auth',
    type: 'secret',
    doc: { section: 'Authentication and secrets', shown: 'generated per process in development' },
    description: '≥ 32 bytes (`openssl rand -base64 48`); HS256; required outside development',
  },
  {
    name: 'JWT_SECRET_PREVIOUS',
    group: 'auth',
    type: 'list',
    doc: { section: 'Authentication and secrets', shown: 'unset' },
    description:
      'comma-separated secrets being retired: tokens they signed are accepted until they expire, new tokens use `JWT_SECRET` (§7)',
  },
  {
    name: 'TOKEN_TTL_SECONDS',
    group: 'auth',
    type: 'int',
    default: 86_400,
    min: 60,
    max: 30 * 86_400,
    doc: { section: 'Authentication and secrets', shown: '`86400`' },
    description: 'access token lifetime (60 s – 30 days)',
  },
  {
    name: 'SCRYPT_COST',
    group: 'auth',
    type: 'int',
    default: 17,
    min: 4,
    max: 20,
    doc: { section: 'Authentication and secrets', shown: '`17`' },
    description: 'log2 of scrypt N for passwords; below 17 refused in production',
  },
  {
    name: 'LOGIN_MAX_FAILURES',
    group: 'auth',
    type: 'int',
    default: 5,
    min: 1,
    max: 10_000,
    doc: { section: 'Authentication and secrets', shown: '`5`, `900`' },
    description: 'failed logins per username + IP within the window (per process)',
  },
  {
    name: 'LOGIN_WINDOW_SECONDS',
    group: 'auth',
    type: 'int',
    default: 900,
    min: 1,
    max: 86_400,
    row: 'LOGIN_MAX_FAILURES',
  },
  {
    name: 'LOGIN_IP_MAX_FAILURES',
    group: 'auth',
    type: 'int',
    default: 30,
    min: 1,
    max: 1_000_000,
    doc: { section: 'Authentication and secrets', shown: '`30`' },
    description:
      'failed logins per client IP across usernames and e-mails (both apps) within `LOGIN_WINDOW_SECONDS`; past it 429 without hashing (per process, [decision 0030](decisions/0030-password-hashing-admission.md))',
  },
  {
    name: 'REGISTER_IP_MAX',
    group: 'auth',
    type: 'int',
    default: 20,
    min: 1,
    max: 1_000_000,
    doc: { section: 'Authentication and secrets', shown: '`20`, `3600`' },
    description: 'registrations per client IP (both apps) within the window; past it 429 (per process)',
  },
  {
    name: 'REGISTER_WINDOW_SECONDS',
    group: 'auth',
    type: 'int',
    default: 3600,
    min: 1,
    max: 86_400,
    row: 'REGISTER_IP_MAX',
  },
  {
    name: 'PASSWORD_HASH_CONCURRENCY',
    group: 'auth',
    type: 'int',
    default: 2,
    min: 1,
    max: 64,
    doc: { section: 'Authentication and secrets', shown: '`2`' },
    description:
      'scrypt hashes running at once per process (logins, registrations, password changes of both apps); memory ≤ this × 128 MiB at the default cost. Clients that recently failed a login or were refused may hold all but one of them',
  },
  {
    name: 'PASSWORD_HASH_QUEUE',
    group: 'auth',
    type: 'int',
    default: 32,
    min: 0,
    max: 10_000,
    doc: { section: 'Authentication and secrets', shown: '`32`' },
    description:
      'hashes waiting at most, per lane (clients in good standing / recently failing); beyond: 503 `服务繁忙，请稍后再试` + `Retry-After`',
  },
  {
    name: 'PASSWORD_HASH_PER_CLIENT',
    group: 'auth',
    type: 'int',
    default: 4,
    min: 1,
    max: 10_000,
    doc: { section: 'Authentication and secrets', shown: '`4`' },
    description:
      'hashes one client IP may have waiting; one more that would have to wait answers 429 + `Retry-After` (a hash that finds a free slot always runs)',
  },
  {
    name: 'PASSWORD_HASH_MAX_WAIT_MS',
    group: 'auth',
    type: 'int',
    default: 3000,
    min: 100,
    max: 60_000,
    doc: { section: 'Authentication and secrets', shown: '`3000`' },
    description: 'a hash that waited this long is refused with 503 + `Retry-After`',
  },
  {
    name: 'GENERATE_MAX_REQUESTS',
    group: 'limits',
    type: 'int',
    default: 30,
    min: 1,
    max: 100_000,
    doc: { section: 'Authentication and secrets', shown: '`30`, `60`' },
    description: 'task submissions per user within the window (per process)',
  },
  {
    name: 'GENERATE_WINDOW_SECONDS',
    group: 'limits',
    type: 'int',
    default: 60,
    min: 1,
    max: 86_400,
    row: 'GENERATE_MAX_REQUESTS',
  },
  {
    name: 'TASK_MAX_PIXELS',
    group: 'limits',
    type: 'int',
    default: 512 * 512 * 8 * 16,
    min: 0,
    max: 1_000_000_000_000,
    doc: { section: 'Authentication and secrets', shown: '`33554432` (512 × 512 × 8 × 16)' },
    description:
      "pixels one task may draw: width × height × frames (directions × frames per direction; a tileset's tiles); more answers 413 `任务规模超出上限`. A 512 px 8 × 16 animation adds ~320 MB to its process at its peak (456 MB RSS, bare pipeline, this 2-core VM), 1024 px 8 × 16 ~710 MB (845 MB RSS): refused. `0` no limit ([decision 0032](decisions/0032-budgets-and-fleet.md))",
  },
  {
    name: 'USER_MAX_PIXELS_IN_FLIGHT',
    group: 'limits',
    type: 'int',
    default: 2 * 512 * 512 * 8 * 16,
    min: 0,
    max: 1_000_000_000_000,
    doc: { section: 'Authentication and secrets', shown: '`67108864` (two of the largest tasks)' },
    description:
      "pixels of one user's running and saving tasks together: a new task over it answers 429 `进行中的任务过多，请稍后再试` with `Retry-After`, so no user holds more than this share of the workers' memory. `0` no limit",
  },
  {
    name: 'USER_MAX_PROJECTS',
    group: 'limits',
    type: 'int',
    default: 1000,
    min: 0,
    max: 100_000_000,
    doc: { section: 'Authentication and secrets', shown: '`1000`' },
    description:
      'projects one user may have; the next answers 429 `工程数量已达上限` until one is deleted (a soft cap: simultaneous creations may pass it together). `0` no limit',
  },
  {
    name: 'UPLOAD_MAX_BYTES',
    group: 'uploads',
    type: 'int',
    default: 10 * 1024 * 1024,
    min: 1024,
    max: 256 * 1024 * 1024,
    doc: { section: 'Authentication and secrets', shown: '`10485760` (10 MiB)' },
    description:
      'largest body of `POST /api/v1/uploads` (a picture, raw or multipart), refused with 413 `图片过大` while it is read ([decision 0034](decisions/0034-images-in.md))',
  },
  {
    name: 'UPLOAD_MAX_SIDE',
    group: 'uploads',
    type: 'int',
    default: 4096,
    min: 16,
    max: 16_384,
    doc: { section: 'Authentication and secrets', shown: '`4096`, `16777216`' },
    description:
      'largest side and pixel count of an uploaded picture, read from its header before anything is decoded (decompression bombs): 413 `图片尺寸过大`',
  },
  {
    name: 'UPLOAD_MAX_PIXELS',
    group: 'uploads',
    type: 'int',
    default: 4096 * 4096,
    min: 256,
    max: 268_435_456,
    row: 'UPLOAD_MAX_SIDE',
  },
  {
    name: 'USER_MAX_UPLOAD_BYTES',
    group: 'uploads',
    type: 'int',
    default: 256 * 1024 * 1024,
    min: 0,
    max: 1_000_000_000_000,
    doc: { section: 'Authentication and secrets', shown: '`268435456` (256 MiB)' },
    description:
      'stored uploads (8-bit RGBA PNGs) one user may keep; past it 413 `上传空间已达上限`. Counted apart from `USER_MAX_STORAGE_BYTES`. `0` no limit',
  },
  {
    name: 'UPLOAD_TTL_SECONDS',
    group: 'uploads',
    type: 'int',
    default: 86_400,
    min: 60,
    max: 31_536_000,
    doc: { section: 'Authentication and secrets', shown: '`86400`, `600`' },
    description:
      'an upload no task uses is deleted this long after it was made or last named by a submission, swept by every API process at this interval (`0`: never); an upload a task uses is kept while the task exists',
  },
  {
    name: 'UPLOAD_SWEEP_SECONDS',
    group: 'uploads',
    type: 'int',
    default: 600,
    min: 0,
    max: 86_400,
    row: 'UPLOAD_TTL_SECONDS',
  },
  {
    name: 'UPLOAD_USER_IN_FLIGHT',
    group: 'uploads',
    type: 'int',
    default: 2,
    min: 1,
    max: 2,
    doc: { section: 'Authentication and secrets', shown: '`2`' },
    description:
      'uploads of one user processed at once, across processes (a slot taken by a unique insert; a third waits up to 1 s, then 429 `上传进行中，请稍后再试`). While one is in flight its stored size is reserved against `USER_MAX_UPLOAD_BYTES`, so simultaneous uploads never pass the quota together ([decision 0043](decisions/0043-image-input-costs.md))',
  },
  {
    name: 'UPLOAD_JPEG_MAX_SCANS',
    group: 'uploads',
    type: 'int',
    default: 64,
    min: 4,
    max: 10_000,
    doc: { section: 'Authentication and secrets', shown: '`64`' },
    description:
      "scans (SOS markers) a JPEG may have, counted from its bytes before decoding: more answer 413. Encoders write 1-4 (baseline) or 8-10 (progressive); each scan of a progressive JPEG is a pass over every block, so 2,649 empty scans of a 4096² picture took 41 s to decode here (libjpeg-turbo's TurboJPEG has the same limit, `TJPARAM_SCANLIMIT`)",
  },
  {
    name: 'UPLOAD_MAX_EXPANSION',
    group: 'uploads',
    type: 'int',
    default: 16,
    min: 0,
    max: 1000,
    doc: { section: 'Authentication and secrets', shown: '`16`' },
    description:
      'the stored PNG may be at most this many times the uploaded bytes (PNGs up to 1 MiB always pass); past it the picture is written again with PNG filters, and if still over, 413 `图片存储后过大，请改传 PNG 或更小的图片`. A 2.9 MB noise JPEG would otherwise be stored as a 69 MB PNG. `0` no limit',
  },
  {
    name: 'UPLOAD_DECODE_CONCURRENCY',
    group: 'uploads',
    type: 'int',
    default: 2,
    min: 1,
    max: 64,
    doc: { section: 'Authentication and secrets', shown: '`2`, `33554432`, `20`' },
    description:
      "pictures decoded at once per process, their pixels together at most `UPLOAD_DECODE_MAX_PIXELS` (a bound on decoding memory); each decode gets `UPLOAD_DECODE_TIMEOUT_SECONDS`. A decode holds one of libuv's threads, so the concurrency is capped at `UV_THREADPOOL_SIZE` − `PASSWORD_HASH_CONCURRENCY` − 2 and at the cores − 1 (at least 1): logins, file reads and store appends always have threads and a core. Uploads waiting longer than 30 s answer 503 `服务繁忙，请稍后再试`",
  },
  {
    name: 'UPLOAD_DECODE_MAX_PIXELS',
    group: 'uploads',
    type: 'int',
    default: 2 * 4096 * 4096,
    min: 256,
    max: 1_073_741_824,
    row: 'UPLOAD_DECODE_CONCURRENCY',
  },
  {
    name: 'UPLOAD_DECODE_TIMEOUT_SECONDS',
    group: 'uploads',
    type: 'int',
    default: 20,
    min: 1,
    max: 600,
    row: 'UPLOAD_DECODE_CONCURRENCY',
  },
  {
    name: 'UPLOAD_DECODER',
    group: 'uploads',
    type: 'string',
    default: 'auto',
    doc: { section: 'Authentication and secrets', shown: '`auto`' },
    description:
      'what reads uploaded pictures (issue #41): `sharp` (PNG, JPEG, WebP, GIF; sharp is an optional peer dependency, `npm install sharp@0.35.5` beside the server, and the start stops naming that line when it is missing), `png` (PNG only, in pure TypeScript; other formats answer 400 `图片无法读取` and the log names sharp) or `auto` (sharp when it is installed, else `png` with a start-up warning that names the install line)',
  },
  {
    name: 'USER_MAX_STORAGE_BYTES',
    group: 'limits',
    type: 'int',
    default: 2 * 1024 ** 3,
    min: 0,
    max: 1_000_000_000_000_000,
    doc: { section: 'Authentication and secrets', shown: '`2147483648` (2 GiB)' },
    description:
      "object storage one user's completed tasks may take (their files, counted when each completes); past it a new task answers 413 `存储空间已达上限` until projects are deleted. `0` no limit",
  },
  {
    name: 'STORAGE_DRIVER',
    group: 'storage',
    type: 'string',
    default: 'fs',
    doc: { section: 'Object storage', shown: '`fs`' },
    description:
      '`fs` (files under `DATA_DIR/objects`, served by the server at signed `/files/…` URLs) or `s3`',
  },
  {
    name: 'SIGNED_URL_TTL_SECONDS',
    group: 'storage',
    type: 'int',
    default: 3600,
    min: 1,
    max: 7 * 86_400,
    doc: { section: 'Object storage', shown: '`3600`' },
    description: 'lifetime of signed download URLs (1 s – 7 days)',
  },
  {
    name: 'PUBLIC_BASE_URL',
    group: 'storage',
    type: 'string',
    doc: { section: 'Object storage', shown: 'unset' },
    description:
      "fs: the public origin of signed URLs. Unset: outside production the request's `Host` (or `X-Forwarded-Host` with `TRUST_PROXY`); in production the URLs are root-relative (`/files/…`) and never take a request header (a warning at start-up). Either driver: the WebSocket also accepts the token cookie from pages of this origin",
  },
  {
    name: 'STORAGE_MIN_FREE_BYTES',
    group: 'storage',
    type: 'string',
    doc: { section: 'Object storage', shown: '`16777216` (16 MiB)' },
    description:
      'fs: below this many free bytes on the objects\' volume the storage check fails with "storage full", so `GET /api/v1/ready` answers 503 with `X-Not-Ready: storage=storage-full` (and the server does not start); `0` no minimum',
  },
  {
    name: 'FILES_SIGNING_SECRET',
    group: 'storage',
    type: 'secret',
    doc: { section: 'Object storage', shown: 'derived from `JWT_SECRET` (HKDF)' },
    description: 'fs: the HMAC key of download tokens, ≥ 32 bytes, must differ from `JWT_SECRET`',
  },
  {
    name: 'FILES_SIGNING_SECRET_PREVIOUS',
    group: 'storage',
    type: 'list',
    doc: { section: 'Object storage', shown: 'unset' },
    description:
      'fs: comma-separated keys being retired; their URLs verify until they expire (§7). With a derived key, the keys derived from `JWT_SECRET_PREVIOUS` are accepted the same way',
  },
  {
    name: 'S3_BUCKET',
    group: 'storage',
    type: 'string',
    doc: { section: 'Object storage', shown: '—' },
    description: 's3: required',
  },
  {
    name: 'S3_ENDPOINT',
    group: 'storage',
    type: 'string',
    doc: { section: 'Object storage', shown: 'AWS' },
    description: 's3: where the servers reach the bucket, e.g. `http://minio:9000`',
  },
  {
    name: 'S3_REGION',
    group: 'storage',
    type: 'string',
    default: 'us-east-1',
    doc: { section: 'Object storage', shown: '`us-east-1`' },
    description: 's3',
  },
  {
    name: 'S3_ACCESS_KEY_ID',
    group: 'storage',
    type: 'secret',
    doc: { section: 'Object storage', shown: 'unset' },
    description:
      's3: both or neither (neither: the AWS default credential chain — instance roles, `AWS_*` variables, profiles)',
  },
  { name: 'S3_SECRET_ACCESS_KEY', group: 'storage', type: 'secret', row: 'S3_ACCESS_KEY_ID' },
  {
    name: 'S3_FORCE_PATH_STYLE',
    group: 'storage',
    type: 'bool',
    doc: { section: 'Object storage', shown: '`true` with `S3_ENDPOINT`, else `false`' },
    description: 's3: path-style URLs (MinIO, s3rver)',
  },
  {
    name: 'S3_PUBLIC_ENDPOINT',
    group: 'storage',
    type: 'string',
    doc: { section: 'Object storage', shown: '`S3_ENDPOINT`' },
    description:
      's3: the origin presigned URLs carry when users reach the bucket by another name than the servers (only signing uses it)',
  },
  {
    name: 'WORKER_IN_PROCESS',
    group: 'queue',
    type: 'bool',
    default: true,
    doc: { section: 'Generation: queue, workers, progress', shown: '`true`' },
    description:
      'run a worker inside the API process; set `false` on API processes when separate workers run',
  },
  {
    name: 'WORKER_CONCURRENCY',
    group: 'queue',
    type: 'int',
    default: 2,
    min: 1,
    max: 64,
    doc: { section: 'Generation: queue, workers, progress', shown: '`2`' },
    description: 'tasks one worker process runs at once (1–64)',
  },
  {
    name: 'USER_MAX_RUNNING_TASKS',
    group: 'queue',
    type: 'int',
    default: 1,
    min: 0,
    max: 1024,
    doc: { section: 'Generation: queue, workers, progress', shown: '`1`' },
    description:
      "tasks one user may have running at once across every worker (`0`: no cap); workers claim for the users holding the fewest running tasks first, so one account's queue of heavy tasks never holds every slot (with the default `WORKER_CONCURRENCY` 2, one slot always stays for other users). Raise it for a single-user server that wants its tasks drawn side by side",
  },
  {
    name: 'TASK_ATTEMPT_CPU_SECONDS',
    group: 'queue',
    type: 'int',
    default: 120,
    min: 0,
    max: 86_400,
    doc: { section: 'Generation: queue, workers, progress', shown: '`120`' },
    description:
      "seconds of drawing (the attempt's own computing, not its waits for a model server, the database or storage) after which an attempt fails with `deadline_exceeded`, never retried; `0`: no limit",
  },
  {
    name: 'TASK_ATTEMPT_WALL_SECONDS',
    group: 'queue',
    type: 'int',
    default: 600,
    min: 0,
    max: 86_400,
    doc: { section: 'Generation: queue, workers, progress', shown: '`600`' },
    description:
      'seconds an attempt of the built-in generator (or a picture pixelated) may take from start to end, waits included, before it fails with `deadline_exceeded`, never retried; a pipeline thread that does not stop within 30 s after it is ended with its runs (the others are retried); `0`: no limit. Model providers keep their own timeouts',
  },
  {
    name: 'PIPELINE_THREADS',
    group: 'queue',
    type: 'string',
    doc: { section: 'Generation: queue, workers, progress', shown: '`auto`' },
    description:
      "worker threads that draw a worker process's tasks (drawing, quality checks, PNG encoding), so its event loop keeps serving requests and streams; `auto` = one per core, at least 1, at most `WORKER_CONCURRENCY`; `0` draws on the event loop. Events, and files for S3, are written by the main thread; with filesystem storage a thread writes its task's files itself ([decision 0026](decisions/0026-generation-overhead.md)). Size containers with this in mind: `auto` on 4 cores is 4 threads (with `WORKER_CONCURRENCY` ≥ 4); set it lower when API and worker processes share a host",
  },
  {
    name: 'PIPELINE_THREAD_IDLE_MS',
    group: 'queue',
    type: 'int',
    default: 30_000,
    min: 0,
    max: 86_400_000,
    doc: { section: 'Generation: queue, workers, progress', shown: '`30000`' },
    description:
      "a pipeline thread beyond the first that has drawn nothing for this long, ms, is ended, so a server goes back to one thread's memory (~40–45 MB resident each) after a burst of tasks; the first stays for the next task, and a task that comes while a thread is being ended goes to a live thread or starts a new one ([decision 0077](decisions/0077-idle-pipeline-threads-retire.md)); `0`: threads stay once started",
  },
  {
    name: 'WORKER_POLL_MS',
    group: 'queue',
    type: 'int',
    default: 500,
    min: 10,
    max: 60_000,
    doc: { section: 'Generation: queue, workers, progress', shown: '`500`' },
    description: 'idle worker poll interval',
  },
  {
    name: 'TASK_LEASE_MS',
    group: 'queue',
    type: 'int',
    default: 30_000,
    min: 500,
    max: 3_600_000,
    doc: { section: 'Generation: queue, workers, progress', shown: '`30000`' },
    description:
      "claim lifetime, renewed every third; a dead worker's task is taken over when it ends. On a slow database (renewals taking seconds) keep it at 30 s or more: a renewal that lands after the lease ended hands the task to another worker (it does not count as a crash, but 4 × TASK_MAX_ATTEMPTS such takeovers fail the task; [decision 0032](decisions/0032-budgets-and-fleet.md))",
  },
  {
    name: 'TASK_MAX_ATTEMPTS',
    group: 'queue',
    type: 'int',
    default: 3,
    min: 1,
    max: 100,
    doc: { section: 'Generation: queue, workers, progress', shown: '`3`' },
    description:
      'workers that die (or vanish) on a task before it is failed ("abandoned by N workers"); a worker that was still alive when it lost the task (a late lease renewal) or handed it back at shutdown does not count; raise it where workers are killed often',
  },
  {
    name: 'TASK_CANCEL_CHECK_MS',
    group: 'queue',
    type: 'int',
    default: 1000,
    min: 0,
    max: 600_000,
    doc: { section: 'Generation: queue, workers, progress', shown: '`1000`' },
    description:
      "while tasks run, how often a worker checks (one read for all of them) that they still exist: a project deleted through another process stops its runs, puts included, within this time, and the worker removes what they wrote ([decision 0029](decisions/0029-project-delete-cancels-running-tasks.md)); `0` off (a delete through the worker's own process cancels at once anyway)",
  },
  {
    name: 'MAX_QUALITY_RETRIES',
    group: 'generation',
    type: 'int',
    default: 2,
    min: 0,
    max: 10,
    doc: { section: 'Generation: queue, workers, progress', shown: '`2`' },
    description: 'quality retries per attempt',
  },
  {
    name: 'EVENT_BATCH_MS',
    group: 'queue',
    type: 'int',
    default: 25,
    min: 0,
    max: 1_000,
    doc: { section: 'Generation: queue, workers, progress', shown: '`25`' },
    description:
      "a worker writes a task's progress events arriving within this window together (`0`: each at once)",
  },
  {
    name: 'EVENT_POLL_MS',
    group: 'queue',
    type: 'int',
    default: 200,
    min: 10,
    max: 60_000,
    doc: { section: 'Generation: queue, workers, progress', shown: '`200`' },
    description:
      'how often a process reads new events for the WebSocket streams it serves (cross-process latency)',
  },
  {
    name: 'WEBHOOK_ALLOW_PRIVATE_TARGETS',
    group: 'webhooks',
    type: 'bool',
    default: false,
    doc: { section: 'Webhooks', shown: '`false`' },
    description:
      'let webhooks reach loopback, private, link-local and other non-public addresses (development and tests only; refused with `NODE_ENV=production`)',
  },
  {
    name: 'WEBHOOK_ALLOWED_HOSTS',
    group: 'webhooks',
    type: 'list',
    doc: { section: 'Webhooks', shown: 'empty' },
    description:
      'an egress allowlist: comma-separated host names or IP literals, `*.example.com` for subdomains; when set, registration answers 403 and delivery refuses any other host before a DNS lookup (the address rules still apply)',
  },
  {
    name: 'WEBHOOK_TIMEOUT_MS',
    group: 'webhooks',
    type: 'int',
    default: 10_000,
    min: 100,
    max: 120_000,
    doc: { section: 'Webhooks', shown: '`10000`' },
    description: "one attempt's deadline",
  },
  {
    name: 'WEBHOOK_MAX_ATTEMPTS',
    group: 'webhooks',
    type: 'int',
    default: 10,
    min: 1,
    max: 50,
    doc: { section: 'Webhooks', shown: '`10`' },
    description: 'attempts before a delivery is `failed`',
  },
  {
    name: 'WEBHOOK_RETRY_BASE_MS',
    group: 'webhooks',
    type: 'int',
    default: 10_000,
    min: 10,
    max: 3_600_000,
    doc: { section: 'Webhooks', shown: '`10000`' },
    description: 'first retry delay; doubled each time (capped at 6 h), with jitter',
  },
  {
    name: 'WEBHOOK_POLL_MS',
    group: 'webhooks',
    type: 'int',
    default: 1_000,
    min: 10,
    max: 60_000,
    doc: { section: 'Webhooks', shown: '`1000`' },
    description: 'how often an idle worker looks for due deliveries',
  },
  {
    name: 'WEBHOOK_PINGS_PER_MINUTE',
    group: 'webhooks',
    type: 'int',
    default: 10,
    min: 1,
    max: 10_000,
    doc: { section: 'Webhooks', shown: '`10`' },
    description: 'test pings per user and minute (429 beyond)',
  },
  {
    name: 'WEBHOOK_LOG_RETENTION_DAYS',
    group: 'webhooks',
    type: 'int',
    default: 30,
    min: 0,
    max: 3650,
    doc: { section: 'Webhooks', shown: '`30`' },
    description:
      'settled deliveries (delivered, failed, cancelled) older than this leave the delivery log; `0` keeps them',
  },
  {
    name: 'LLM_API_KEY',
    group: 'generation',
    type: 'secret',
    doc: { section: 'Prompt optimizer (LLM) and image generator', shown: 'unset' },
    description: 'an OpenAI-compatible chat-completions key; unset: template prompts',
  },
  {
    name: 'LLM_BASE_URL',
    group: 'generation',
    type: 'string',
    default: 'https://api.openai.com/v1',
    doc: {
      section: 'Prompt optimizer (LLM) and image generator',
      shown: '`https://api.openai.com/v1`, `gpt-4o-mini`, `15000`',
    },
    description: '',
  },
  { name: 'LLM_MODEL', group: 'generation', type: 'string', default: 'gpt-4o-mini', row: 'LLM_BASE_URL' },
  {
    name: 'LLM_TIMEOUT_MS',
    group: 'generation',
    type: 'int',
    default: 15_000,
    min: 100,
    max: 300_000,
    row: 'LLM_BASE_URL',
  },
  {
    name: 'IMAGE_PROVIDER',
    group: 'generation',
    type: 'string',
    default: 'procedural',
    doc: { section: 'Prompt optimizer (LLM) and image generator', shown: '`procedural`' },
    description: '`procedural`, `openai`, `comfyui` or `a1111`',
  },
  {
    name: 'IMAGE_TIMEOUT_MS',
    group: 'generation',
    type: 'int',
    default: 300_000,
    min: 1_000,
    max: 3_600_000,
    doc: { section: 'Prompt optimizer (LLM) and image generator', shown: '`300000`' },
    description: "one model request's deadline",
  },
  {
    name: 'IMAGE_API_KEY',
    group: 'generation',
    type: 'secret',
    doc: {
      section: 'Prompt optimizer (LLM) and image generator',
      label: '`IMAGE_API_KEY` (or `OPENAI_API_KEY`), `IMAGE_BASE_URL`, `IMAGE_MODEL`, `IMAGE_QUALITY`',
      shown: '—, `https://api.openai.com/v1`, `gpt-image-1`, unset',
    },
    description: '`openai`',
  },
  { name: 'OPENAI_API_KEY', group: 'generation', type: 'secret', row: 'IMAGE_API_KEY' },
  { name: 'IMAGE_BASE_URL', group: 'generation', type: 'string', row: 'IMAGE_API_KEY' },
  { name: 'IMAGE_MODEL', group: 'generation', type: 'string', default: 'gpt-image-1', row: 'IMAGE_API_KEY' },
  { name: 'IMAGE_QUALITY', group: 'generation', type: 'string', row: 'IMAGE_API_KEY' },
  {
    name: 'COMFYUI_URL',
    group: 'generation',
    type: 'string',
    doc: {
      section: 'Prompt optimizer (LLM) and image generator',
      shown: '`http://127.0.0.1:8188`, built-in, unset',
    },
    description: '`comfyui` (workflow: a JSON file in API format)',
  },
  { name: 'COMFYUI_WORKFLOW', group: 'generation', type: 'string', row: 'COMFYUI_URL' },
  { name: 'COMFYUI_CHECKPOINT', group: 'generation', type: 'string', row: 'COMFYUI_URL' },
  {
    name: 'COMFYUI_STEPS',
    group: 'generation',
    type: 'int',
    default: 25,
    min: 1,
    max: 150,
    doc: { section: 'Prompt optimizer (LLM) and image generator', shown: "the workflow's, `1024`" },
    description:
      '`comfyui`: sampler steps (1-150) and the longest edge of the picture asked for (256-2048; a CPU-only ComfyUI wants 256-512)',
  },
  {
    name: 'COMFYUI_MAX_EDGE',
    group: 'generation',
    type: 'int',
    default: 1024,
    min: 256,
    max: 2048,
    row: 'COMFYUI_STEPS',
  },
  {
    name: 'A1111_URL',
    group: 'generation',
    type: 'string',
    doc: {
      section: 'Prompt optimizer (LLM) and image generator',
      shown: '`http://127.0.0.1:7860`, unset, unset',
    },
    description: '`a1111`',
  },
  { name: 'A1111_STEPS', group: 'generation', type: 'int', default: 25, min: 1, max: 150, row: 'A1111_URL' },
  { name: 'A1111_SAMPLER', group: 'generation', type: 'string', row: 'A1111_URL' },
  {
    name: 'METRICS_ENABLED',
    group: 'metrics',
    type: 'bool',
    default: false,
    doc: { section: 'Operations', shown: '`false`' },
    description:
      'serve Prometheus metrics at `GET /metrics` (API processes: on `PORT`; workers: on `HOST:METRICS_PORT`)',
  },
  {
    name: 'METRICS_TOKEN',
    group: 'metrics',
    type: 'secret',
    doc: { section: 'Operations', shown: 'unset' },
    description:
      '≥ 16 bytes; scrapes must send `Authorization: Bearer <token>` (401 otherwise). Required with `METRICS_ENABLED=true` in production',
  },
  {
    name: 'METRICS_PORT',
    group: 'metrics',
    type: 'int',
    default: 9464,
    min: 0,
    max: 65535,
    doc: { section: 'Operations', shown: '`9464`' },
    description: "a worker process's metrics listener (`0` picks a free port)",
  },
] as const satisfies readonly SettingDefinition[];

export type SettingName = (typeof SETTINGS)[number]['name'];

export type IntSettingName = Extract<(typeof SETTINGS)[number], { type: 'int' }>['name'];
export type BoolSettingName = Extract<(typeof SETTINGS)[number], { type: 'bool'; default: boolean }>['name'];

export type TextSettingName = Extract<(typeof SETTINGS)[number], { type: 'string'; default: string }>['name'];

const BY_NAME: ReadonlyMap<string, SettingDefinition> = new Map(SETTINGS.map((s) => [s.name, s]));

/** The definition of `name`. */
export function settingOf(name: SettingName): SettingDefinition {
  const setting = BY_NAME.get(name);
  if (setting === undefined) throw new Error(`[assetloom/server] no setting ${name}`);
  return setting;
}

/** Default and bounds of an integer setting. */
export function intSetting(name: IntSettingName): { fallback: number; min: number; max: number } {
  const { default: fallback, min, max } = settingOf(name);
  if (typeof fallback !== 'number' || min === undefined || max === undefined) {
    throw new Error(`[assetloom/server] ${name} has no integer default and bounds`);
  }
  return { fallback, min, max };
}

/** Default of a string setting. */
export function textSetting(name: TextSettingName): string {
  const fallback = settingOf(name).default;
  if (typeof fallback !== 'string') throw new Error(`[assetloom/server] ${name} has no text default`);
  return fallback;
}

/** Default of a boolean setting. */
export function boolSetting(name: BoolSettingName): boolean {
  const fallback = settingOf(name).default;
  if (typeof fallback !== 'boolean') throw new Error(`[assetloom/server] ${name} has no boolean default`);
  return fallback;
}
