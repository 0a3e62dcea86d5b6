/**
 * The one message catalogue of both apps (decision 0037): every error message of the asset API and
 * of the review helper with its stable `reason` and its English text, the messages of refused fields
 * by rule, and the review helper's page texts. Chinese is the default, as specs 000 and 001 fix the
 * messages; English is given to requests whose `Accept-Language` prefers it. An English text says
 * what its Chinese message says.
 */

/** The languages the servers answer in. */
export type Language = 'zh' | 'en';

export const DEFAULT_LANGUAGE: Language = 'zh';

/** A message in both languages. */
export interface Texts {
  readonly zh: string;
  readonly en: string;
}

const ACCEPTED: Readonly<Record<string, Language>> = { zh: 'zh', en: 'en' };

/**
 * The language a request prefers from its `Accept-Language` (RFC 9110 §12.5.4): the supported
 * language (zh or en, by primary subtag) with the highest `q`, the first listed on a tie; `*` and
 * anything else mean the default, Chinese. Never throws.
 */
export function languageOf(header: string | readonly string[] | null | undefined): Language {
  const text = Array.isArray(header) ? header.join(',') : header;
  if (typeof text !== 'string' || text === '') return DEFAULT_LANGUAGE;
  let best: Language = DEFAULT_LANGUAGE;
  let bestQ = 0;
  // A header is short; anything past 1 KiB is not read (and the rest still answers in Chinese).
  for (const part of text.slice(0, 1024).split(',')) {
    const [rawTag, ...params] = part.split(';');
    const tag = (rawTag ?? '').trim().toLowerCase();
    const language = ACCEPTED[tag.split('-')[0] ?? ''];
    if (language === undefined) continue;
    let q = 1;
    for (const param of params) {
      const match = /^\s*q\s*=\s*([01](?:\.\d{0,3})?)\s*$/i.exec(param);
      if (match) q = Number(match[1]);
    }
    if (q > bestQ) {
      best = language;
      bestQ = q;
    }
  }
  return best;
}

/** The `Content-Language` value of an answer in `language`. */
export function contentLanguage(language: Language): string {
  return language === 'en' ? 'en' : 'zh-CN';
}

interface ErrorEntry extends Texts {
  readonly reason: string;
}

const entry = (reason: string, zh: string, en: string): ErrorEntry => ({ reason, zh, en });

/**
 * Messages both apps answer with the same words: the transport's own (unknown route, wrong method,
 * a body too large, what Node's parser stops before an app sees a request: client-error.ts) and a
 * full hash gate.
 */
const SHARED_ERRORS = {
  invalidRequest: entry('invalid_request', '参数错误', 'Invalid parameters'),
  routeNotFound: entry('route_not_found', '接口不存在', 'Endpoint not found'),
  methodNotAllowed: entry('method_not_allowed', '请求方法不允许', 'Method not allowed'),
  payloadTooLarge: entry('payload_too_large', '请求体过大', 'The request body is too large'),
  busy: entry('busy', '服务繁忙，请稍后再试', 'The service is busy, please try again later'),
  headersTooLarge: entry('headers_too_large', '请求头过大', 'The request headers are too large'),
  requestTimeout: entry('request_timeout', '请求超时', 'The request timed out'),
} as const;

/**
 * The asset API's error messages (spec 000 and openapi/asset-api.yaml) with their reasons
 * (`ErrorReason` of the contract) and English texts.
 */
export const ASSET_API_ERRORS: readonly ErrorEntry[] = [
  SHARED_ERRORS.invalidRequest,
  entry('empty_prompt', 'prompt 不能为空', 'prompt must not be empty'),
  entry('wrong_old_password', '原密码不正确', 'The old password is incorrect'),
  entry('image_unreadable', '图片无法读取', 'The image cannot be read'),
  entry('unauthenticated', '未登录或 Token 已过期', 'Not logged in, or the token has expired'),
  entry('bad_credentials', '用户名或密码错误', 'Wrong username or password'),
  entry('forbidden', '无权访问该资源', 'No access to this resource'),
  entry('project_forbidden', '无权访问该工程', 'No access to this project'),
  entry('task_forbidden', '无权访问该任务', 'No access to this task'),
  entry('upload_forbidden', '无权访问该上传', 'No access to this upload'),
  entry('webhook_target_refused', '不允许的 Webhook 地址', 'This webhook address is not allowed'),
  entry('project_not_found', '工程不存在', 'Project not found'),
  entry('task_not_found', '任务不存在', 'Task not found'),
  entry('asset_not_found', '资源不存在', 'Resource not found'),
  entry('webhook_not_found', 'Webhook 不存在', 'Webhook not found'),
  entry('upload_not_found', '上传不存在', 'Upload not found'),
  entry('character_forbidden', '无权访问该角色', 'No access to this character'),
  entry('character_not_found', '角色不存在', 'Character not found'),
  SHARED_ERRORS.routeNotFound,
  SHARED_ERRORS.methodNotAllowed,
  entry('username_taken', '用户名已被注册', 'This username is already registered'),
  entry('email_taken', '邮箱已被注册', 'This email is already registered'),
  entry('webhook_limit', 'Webhook 数量已达上限', 'The project has as many webhooks as allowed'),
  entry('upload_in_use', '上传正被任务使用', 'A task is using this upload'),
  SHARED_ERRORS.payloadTooLarge,
  entry('task_too_large', '任务规模超出上限', 'The task is larger than allowed'),
  entry('storage_quota', '存储空间已达上限', 'Your storage space is full'),
  entry('image_too_large', '图片过大', 'The image is too large'),
  entry('image_dimensions', '图片尺寸过大', 'The image dimensions are too large'),
  entry('upload_quota', '上传空间已达上限', 'Your upload space is full'),
  entry(
    'image_too_many_scans',
    'JPEG 扫描次数过多，请另存为基线 JPEG 或 PNG',
    'The JPEG has too many progressive scans: save it as a baseline JPEG or a PNG and upload it again',
  ),
  entry(
    'image_expands',
    '图片存储后过大，请改传 PNG 或更小的图片',
    'The picture would take too much space once stored (noisy pictures grow the most): upload it as a PNG, or a smaller or less noisy picture',
  ),
  entry('unsupported_media_type', '请求体必须是 JSON', 'The request body must be JSON'),
  entry(
    'unsupported_content_encoding',
    '不支持的内容编码',
    'The request body must not be compressed (Content-Encoding is not supported)',
  ),
  entry('too_many_requests', '请求过于频繁，请稍后再试', 'Too many requests, please try again later'),
  entry(
    'too_many_in_flight',
    '进行中的任务过多，请稍后再试',
    'Too many tasks in progress, please try again later',
  ),
  entry('project_limit', '工程数量已达上限', 'You have as many projects as allowed'),
  entry(
    'uploads_in_flight',
    '上传进行中，请稍后再试',
    'Your other uploads are still being processed, please try again shortly',
  ),
  entry('internal', '服务器内部错误', 'Internal server error'),
  entry('not_ready', '服务未就绪', 'The service is not ready'),
  entry(
    'storage_full',
    '存储空间不足，请稍后再试',
    'The server is out of storage space, please try again later',
  ),
  SHARED_ERRORS.busy,
  SHARED_ERRORS.headersTooLarge,
  SHARED_ERRORS.requestTimeout,
];

/** The review helper's error messages (spec 001 and openapi/review-auth.yaml). */
export const REVIEW_ERRORS: readonly ErrorEntry[] = [
  entry('credentials_required', '邮箱和密码为必填项', 'Email and password are required'),
  entry('email_invalid', '邮箱格式不正确', 'The email format is invalid'),
  entry('password_too_short', '密码长度至少为 6 位', 'The password must be at least 6 characters long'),
  entry('bad_credentials', '邮箱或密码错误', 'Wrong email or password'),
  entry('email_taken', '该邮箱已被注册', 'This email is already registered'),
  entry('server_error', '服务器错误', 'Server error'),
  entry('session_save_failed', '会话保存失败', 'The session could not be saved'),
  entry('hashing_failed', '密码加密失败', 'The password could not be hashed'),
  entry('insert_failed', '注册失败', 'Registration failed'),
  entry('cross_site', '请求来源不被允许', 'Request origin not allowed'),
  entry(
    'too_many_attempts',
    '登录尝试过于频繁，请稍后再试',
    'Too many login attempts, please try again later',
  ),
  entry(
    'too_many_registrations',
    '注册过于频繁，请稍后再试',
    'Too many registrations, please try again later',
  ),
  ...Object.values(SHARED_ERRORS),
];

const byChinese = (list: readonly ErrorEntry[]) => new Map(list.map((e) => [e.zh, e]));
const ASSET_BY_MESSAGE = byChinese(ASSET_API_ERRORS);
const REVIEW_BY_MESSAGE = byChinese(REVIEW_ERRORS);

/** The catalogue entry of a Chinese error message of the asset API or the review helper. */
export function errorEntry(message: string, app: 'asset' | 'review' = 'asset'): ErrorEntry | undefined {
  return (app === 'review' ? REVIEW_BY_MESSAGE : ASSET_BY_MESSAGE).get(message);
}

// ---------------------------------------------------------------------------------------------
// Refused fields
// ---------------------------------------------------------------------------------------------

/** Where a refused field is. */
export type FieldLocation = 'body' | 'query' | 'path' | 'header';

/** A scalar an `allowed` list holds. */
export type AllowedValue = string | number | boolean | null;

/**
 * One refused field, before it is put in words: where it is, the rule it broke and that rule's
 * parameters. `text` is an English explanation for a rule the catalogue has no words for.
 */
export interface FieldProblem {
  in: FieldLocation;
  /** JSON pointer of the field (`/params/resolution`), or `/<name>` of a parameter. */
  path: string;
  rule: string;
  limit?: number;
  allowed?: readonly AllowedValue[];
  /** The JSON type expected (rule `type`). */
  type?: string;
  /** The format expected (rule `format`). */
  format?: string;
  /** What else a style key accepts besides `allowed` (rule `styleValue`). */
  accepts?: 'hexColours' | 'number' | 'words';
  text?: string;
  /** The same words in Chinese, when `text` is given (rule `image`). */
  zh?: string;
}

/** One refused field as the answer states it (`FieldError` of the contracts). */
export interface FieldError {
  in: FieldLocation;
  path: string;
  rule: string;
  message: string;
  allowed?: AllowedValue[];
  limit?: number;
}

const TYPE_NAMES: Readonly<Record<string, Texts>> = {
  string: { zh: '字符串', en: 'a string' },
  integer: { zh: '整数', en: 'an integer' },
  number: { zh: '数字', en: 'a number' },
  boolean: { zh: '布尔值', en: 'true or false' },
  object: { zh: '对象', en: 'an object' },
  array: { zh: '数组', en: 'an array' },
  null: { zh: 'null', en: 'null' },
};

const FORMAT_NAMES: Readonly<Record<string, Texts>> = {
  email: { zh: '邮箱地址', en: 'e-mail address' },
  uri: { zh: '网址', en: 'URL' },
  url: { zh: '网址', en: 'URL' },
  'date-time': { zh: '时间', en: 'date and time' },
};

const shown = (value: AllowedValue) => (typeof value === 'string' ? value : JSON.stringify(value));
const list = (values: readonly AllowedValue[] | undefined, language: Language) =>
  (values ?? []).map(shown).join(language === 'zh' ? '、' : ', ');

const ACCEPTS: Readonly<Record<NonNullable<FieldProblem['accepts']>, Texts>> = {
  hexColours: { zh: '，或 2-256 个不重复的 #rrggbb 颜色', en: ', or 2-256 distinct #rrggbb colours' },
  number: { zh: '，或一个数字', en: ', or a number' },
  words: { zh: '（也可以是含有这些词的文字）', en: ' (or text holding one of these words)' },
};

type Template = (p: FieldProblem, language: Language) => string;

const both =
  (zh: (p: FieldProblem) => string, en: (p: FieldProblem) => string): Template =>
  (p, language) =>
    language === 'zh' ? zh(p) : en(p);

/** The words of each rule, in both languages. */
const RULES: Readonly<Record<string, Template>> = {
  required: both(
    () => '必填',
    () => 'is required',
  ),
  notBlank: both(
    () => '不能为空',
    () => 'must not be empty',
  ),
  type: both(
    (p) => `应为${(TYPE_NAMES[p.type ?? ''] ?? { zh: p.type ?? '' }).zh}`,
    (p) => `must be ${(TYPE_NAMES[p.type ?? ''] ?? { en: p.type ?? '' }).en}`,
  ),
  minLength: both(
    (p) => (p.limit === 1 ? '不能为空' : `长度至少为 ${p.limit} 个字符`),
    (p) => (p.limit === 1 ? 'must not be empty' : `must be at least ${p.limit} characters long`),
  ),
  maxLength: both(
    (p) => `长度不能超过 ${p.limit} 个字符`,
    (p) => `must be at most ${p.limit} characters long`,
  ),
  minimum: both(
    (p) => `不能小于 ${p.limit}`,
    (p) => `must be at least ${p.limit}`,
  ),
  maximum: both(
    (p) => `不能大于 ${p.limit}`,
    (p) => `must be at most ${p.limit}`,
  ),
  exclusiveMinimum: both(
    (p) => `应大于 ${p.limit}`,
    (p) => `must be greater than ${p.limit}`,
  ),
  exclusiveMaximum: both(
    (p) => `应小于 ${p.limit}`,
    (p) => `must be less than ${p.limit}`,
  ),
  multipleOf: both(
    (p) => `应为 ${p.limit} 的倍数`,
    (p) => `must be a multiple of ${p.limit}`,
  ),
  enum: both(
    (p) => `应为以下之一：${list(p.allowed, 'zh')}`,
    (p) => `must be one of: ${list(p.allowed, 'en')}`,
  ),
  const: both(
    (p) => `应为 ${list(p.allowed, 'zh')}`,
    (p) => `must be ${list(p.allowed, 'en')}`,
  ),
  pattern: both(
    () => '格式不正确',
    () => 'has an invalid format',
  ),
  format: both(
    (p) => `不是有效的${(FORMAT_NAMES[p.format ?? ''] ?? { zh: p.format ?? '' }).zh}`,
    (p) => `must be a valid ${(FORMAT_NAMES[p.format ?? ''] ?? { en: p.format ?? '' }).en}`,
  ),
  additionalProperties: both(
    () => '不支持的字段',
    () => 'is not a known field',
  ),
  propertyNames: both(
    () => '键名无效（应为 1-64 个字符）',
    () => 'is not a valid key (1-64 characters)',
  ),
  minProperties: both(
    (p) => `至少需要 ${p.limit} 项`,
    (p) => `must have at least ${p.limit} entries`,
  ),
  maxProperties: both(
    (p) => `最多 ${p.limit} 项`,
    (p) => `must have at most ${p.limit} entries`,
  ),
  minItems: both(
    (p) => `至少需要 ${p.limit} 项`,
    (p) => `must have at least ${p.limit} items`,
  ),
  maxItems: both(
    (p) => `最多 ${p.limit} 项`,
    (p) => `must have at most ${p.limit} items`,
  ),
  uniqueItems: both(
    () => '不能有重复项',
    () => 'must not repeat an item',
  ),
  json: both(
    () => '不是有效的 JSON 对象',
    () => 'is not a valid JSON object',
  ),
  repeated: both(
    () => '只能给出一次',
    () => 'must be given only once',
  ),
  maxDepth: both(
    (p) => `嵌套不能超过 ${p.limit} 层`,
    (p) => `must not nest deeper than ${p.limit} levels`,
  ),
  styleValue: both(
    (p) => `不是生成器可读的取值，可选：${list(p.allowed, 'zh')}${p.accepts ? ACCEPTS[p.accepts].zh : ''}`,
    (p) =>
      `is not a value the generator reads; use one of: ${list(p.allowed, 'en')}${p.accepts ? ACCEPTS[p.accepts].en : ''}`,
  ),
  frameCount: both(
    (p) => `每个方向的每一帧需要一个时长（${p.limit} 个）`,
    (p) => `must have one duration per frame of a direction (${p.limit})`,
  ),
  assetType: both(
    (p) => `仅适用于 ${list(p.allowed, 'zh')}`,
    (p) => `is only for ${list(p.allowed, 'en')}`,
  ),
  characters: both(
    () => '含有不允许的字符（控制字符、零宽字符、分隔符，或首尾空格）',
    () =>
      'holds a character that is not allowed (a control, zero-width or separator character, or a space at either end)',
  ),
  url: both(
    () => '不是可用的网址',
    () => 'is not a usable URL',
  ),
  oneOf: both(
    () => '取值无效',
    () => 'is not valid',
  ),
  image: both(
    (p) => p.zh ?? '取值无效',
    (p) => p.text ?? 'is not valid',
  ),
  level: both(
    (p) => p.zh ?? '取值无效',
    (p) => p.text ?? 'is not valid',
  ),
};

const GENERIC: Template = both(
  () => '取值无效',
  (p) => p.text ?? 'is not valid',
);

/** A refused field in the words of `language`. */
export function fieldError(problem: FieldProblem, language: Language = DEFAULT_LANGUAGE): FieldError {
  const template = RULES[problem.rule] ?? GENERIC;
  const out: FieldError = {
    in: problem.in,
    path: problem.path,
    rule: problem.rule,
    message: template(problem, language),
  };
  if (problem.allowed !== undefined) out.allowed = [...problem.allowed];
  if (problem.limit !== undefined) out.limit = problem.limit;
  return out;
}

/** The rules the catalogue has words for. */
export const FIELD_RULES: readonly string[] = Object.freeze(Object.keys(RULES));

// ---------------------------------------------------------------------------------------------
// The review helper's pages
// ---------------------------------------------------------------------------------------------

export interface ReviewPageTexts {
  readonly htmlLang: string;
  readonly appName: string;
  readonly email: string;
  readonly password: string;
  readonly loginTitle: string;
  readonly loginSubmit: string;
  readonly noAccount: string;
  readonly register: string;
  readonly registerTitle: string;
  readonly registerSubmit: string;
  readonly passwordHint: string;
  readonly haveAccount: string;
  readonly login: string;
  readonly noScript: string;
  readonly homeTitle: string;
  readonly signedInAs: string;
  readonly logout: string;
  readonly errorTitle: string;
  readonly errorText: string;
  readonly backToLogin: string;
  /** Shown by the page script when the answer is not the JSON `{error}`. */
  readonly serverError: string;
  /** Shown by the page script when no answer came. */
  readonly networkError: string;
}

export const REVIEW_PAGES: Readonly<Record<Language, ReviewPageTexts>> = {
  zh: {
    htmlLang: 'zh-CN',
    appName: '代码评审助手',
    email: '邮箱',
    password: '密码',
    loginTitle: '登录',
    loginSubmit: '登录',
    noAccount: '还没有账号？',
    register: '注册',
    registerTitle: '注册',
    registerSubmit: '注册并登录',
    passwordHint: '密码至少 6 位。',
    haveAccount: '已有账号？',
    login: '登录',
    noScript: '请启用 JavaScript 后再提交表单。',
    homeTitle: '首页',
    signedInAs: '已登录：',
    logout: '退出登录',
    errorTitle: '服务器错误',
    errorText: '页面暂时无法显示，请稍后再试。',
    backToLogin: '返回登录',
    serverError: '服务器错误',
    networkError: '网络错误，请检查网络后重试',
  },
  en: {
    htmlLang: 'en',
    appName: 'Code Review Helper',
    email: 'Email',
    password: 'Password',
    loginTitle: 'Log in',
    loginSubmit: 'Log in',
    noAccount: 'No account yet?',
    register: 'Register',
    registerTitle: 'Register',
    registerSubmit: 'Register and log in',
    passwordHint: 'At least 6 characters.',
    haveAccount: 'Already have an account?',
    login: 'Log in',
    noScript: 'Please enable JavaScript to submit the form.',
    homeTitle: 'Home',
    signedInAs: 'Signed in as ',
    logout: 'Log out',
    errorTitle: 'Server error',
    errorText: 'The page cannot be shown right now. Please try again later.',
    backToLogin: 'Back to login',
    serverError: 'Server error',
    networkError: 'Network error. Please check your connection and try again.',
  },
};

// ---------------------------------------------------------------------------------------------
// The style catalogue's key descriptions
// ---------------------------------------------------------------------------------------------

export const STYLE_KEY_TEXTS: Readonly<
  Record<
    | 'palette'
    | 'artStyle'
    | 'lineWeight'
    | 'lighting'
    | 'tileable'
    | 'scene'
    | 'subject'
    | 'mood'
    | 'theme'
    | 'biome',
    Texts
  >
> = {
  palette: {
    zh: '调色板：一个命名调色板，或 2-256 个不重复的 #rrggbb 颜色（逗号或空格分隔）。给出时每个像素都取自它，质检会核对。',
    en: 'Palette: a named palette, or 2-256 distinct #rrggbb colours separated by commas or spaces. When given, every pixel comes from it and the quality check enforces it.',
  },
  artStyle: {
    zh: '画风：pixel（默认）；8-bit / retro 为更粗的像素；smooth、hd、vector、cartoon、flat、painterly、hand-drawn 为更细的网格。',
    en: 'Art style: pixel (default); 8-bit or retro for chunkier pixels; smooth, hd, vector, cartoon, flat, painterly or hand-drawn for a finer grid.',
  },
  lineWeight: {
    zh: '描边粗细：none（无）、thin（默认）、thick（粗），或一个数字（像素）。',
    en: 'Outline: none, thin (default), thick, or a number of pixels.',
  },
  lighting: {
    zh: '光照：方向（top-left 默认、top-right、top、left、right、bottom）和/或氛围（night、sunset、dramatic、soft、flat）。',
    en: 'Lighting: a direction (top-left by default, top-right, top, left, right, bottom) and/or a mood (night, sunset, dramatic, soft, flat).',
  },
  tileable: {
    zh: '可平铺：true 使背景可以无缝平铺，其视差层横向重复。',
    en: 'Tileable: true makes a background tile seamlessly and its parallax layers repeat sideways.',
  },
  scene: { zh: '场景：任意文字，与描述一起解读。', en: 'Scene: any text, read together with the prompt.' },
  subject: {
    zh: '主体：任意文字，与描述一起解读。',
    en: 'Subject: any text, read together with the prompt.',
  },
  mood: { zh: '氛围：任意文字，与描述一起解读。', en: 'Mood: any text, read together with the prompt.' },
  theme: { zh: '主题：任意文字，与描述一起解读。', en: 'Theme: any text, read together with the prompt.' },
  biome: { zh: '地貌：任意文字，与描述一起解读。', en: 'Biome: any text, read together with the prompt.' },
};
