import { type AssetloomApiError, describeLimit, type ErrorLimit } from '@assetloom/sdk';
import type { Lang } from './i18n.js';

/**
 * The server answers in the language the studio asks for (`Accept-Language`, sent with every call).
 * A server that only speaks the spec's Chinese still gets read in English: its fixed messages are
 * looked up here (an unknown message is shown as it came).
 */
const ENGLISH: Readonly<Record<string, string>> = {
  参数错误: 'Invalid parameters',
  '未登录或 Token 已过期': 'Not logged in, or the session expired',
  无权访问该资源: 'You have no access to this resource',
  无权访问该工程: 'You have no access to this project',
  无权访问该任务: 'You have no access to this task',
  工程不存在: 'Project not found',
  任务不存在: 'Task not found',
  资源不存在: 'File not found',
  接口不存在: 'Endpoint not found',
  请求方法不允许: 'Method not allowed',
  用户名已被注册: 'This username is taken',
  邮箱已被注册: 'This email is already registered',
  原密码不正确: 'The current password is wrong',
  'prompt 不能为空': 'The description must not be empty',
  用户名或密码错误: 'Wrong username or password',
  请求体过大: 'The request is too large',
  '请求体必须是 JSON': 'The request must be JSON',
  '请求过于频繁，请稍后再试': 'Too many requests; try again in a moment',
  服务器内部错误: 'Server error',
  服务未就绪: 'The service is not ready',
  '服务繁忙，请稍后再试': 'The service is busy; try again in a moment',
  任务规模超出上限: 'The task is larger than allowed',
  '进行中的任务过多，请稍后再试': 'Too many tasks running; try again in a moment',
  工程数量已达上限: 'You have reached the number of projects allowed',
  存储空间已达上限: 'Your storage is full',
  图片无法读取: 'The image cannot be read',
  图片过大: 'The image is too large',
  图片尺寸过大: 'The image dimensions are too large',
  上传空间已达上限: 'Your upload space is full',
  'Webhook 数量已达上限': 'The project has as many webhooks as allowed',
  // characters (issue #40)
  角色不存在: 'Character not found',
  无权访问该角色: 'No access to this character',
  上传不存在: 'Upload not found',
  无权访问该上传: 'No access to this upload',
};

/**
 * Spec messages that name their field although the envelope does not (servers before `data.errors`):
 * shown at that field all the same.
 */
const MESSAGE_FIELDS: Readonly<Record<string, string>> = {
  'prompt 不能为空': '/prompt',
  'The description must not be empty': '/prompt',
  原密码不正确: '/oldPassword',
  用户名已被注册: '/username',
  邮箱已被注册: '/email',
};

/** A server message in the UI's language (Chinese ones translated for the English UI when known). */
export function serverText(message: string, lang: Lang): string {
  return lang === 'en' ? (ENGLISH[message] ?? message) : message;
}

/**
 * An API error's message in the UI's language, with the limit it met when the server named one
 * (`图片尺寸过大（上限：边长 4,096 像素；本次：5,000 像素）`, `The image dimensions are too large (at
 * most 4,096 px per side; this one: 5,000 px)`).
 */
export function errorText(error: { message: string; limit?: ErrorLimit | undefined }, lang: Lang): string {
  const text = serverText(error.message, lang);
  if (error.limit === undefined) return text;
  return lang === 'zh'
    ? `${text}（${describeLimit(error.limit, 'zh')}）`
    : `${text} (${describeLimit(error.limit, 'en')})`;
}

/**
 * The spec's message of an error with the UI's language beside it (the character page, issue #40):
 * the Chinese message of the envelope, and in the English UI its English too — "Character not found
 * (角色不存在)", whichever of the two the server answered.
 */
export function specMessage(message: string, lang: Lang): string {
  if (lang === 'zh') return CHINESE[message] ?? message;
  const english = ENGLISH[message];
  if (english !== undefined) return `${english} (${message})`;
  const chinese = CHINESE[message];
  return chinese === undefined ? message : `${message} (${chinese})`;
}
const CHINESE: Readonly<Record<string, string>> = Object.fromEntries(
  Object.entries(ENGLISH).map(([zh, en]) => [en, zh]),
);

/** `/params/frames` from `['params', 'frames']`, JSON-pointer escaped (`~0` for `~`, `~1` for `/`). */
export const pointer = (...parts: string[]): string =>
  parts.map((p) => `/${p.replaceAll('~', '~0').replaceAll('/', '~1')}`).join('');

/** True when `path` is `field` or lies under it (`/params/frames/framesPerDirection` under `/params/frames`). */
const under = (path: string, field: string) => path === field || path.startsWith(`${field}/`);

/**
 * An API error as a form shows it: each field's message (from `data.errors`, keyed by JSON pointer)
 * beside that field, the rest in one general message. `fields` are the pointers the form has a
 * control for (a prefix such as `/kvPairs` covers every key under it); a field the form does not
 * show goes into the general message with its path, so nothing the server said is lost.
 */
export interface ShownError {
  /** The message(s) for the field at `path` or under it, if the server named it. */
  at(path: string): string | undefined;
  /** The error's own message, then those of fields no control of the form shows; '' without an error. */
  readonly general: string;
}

export function shownError(
  error: AssetloomApiError | undefined,
  lang: Lang,
  fields: readonly string[] = [],
): ShownError {
  const named = error && error.errors.length === 0 ? MESSAGE_FIELDS[error.message] : undefined;
  const listed =
    error === undefined
      ? []
      : named !== undefined && fields.includes(named)
        ? [{ path: named, rule: '', message: error.message }]
        : error.errors;
  const rest = listed.filter((f) => !fields.some((field) => under(f.path, field)));
  return {
    at(path) {
      const mine = listed.filter((f) => under(f.path, path));
      return mine.length === 0 ? undefined : mine.map((f) => serverText(f.message, lang)).join('; ');
    },
    general:
      error === undefined
        ? ''
        : [
            errorText(error, lang),
            ...rest.map((f) => `${f.path || '/'}: ${serverText(f.message, lang)}`),
          ].join(' — '),
  };
}
