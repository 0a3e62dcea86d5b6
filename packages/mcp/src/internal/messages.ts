/** The languages the MCP server speaks to the agent (and asks the API to answer in). */
export type Language = 'en' | 'zh';

/** `en` or `zh` from a language tag or a locale such as `zh_CN.UTF-8`; undefined for anything else. */
export function languageOf(value: string | undefined): Language | undefined {
  if (value === undefined) return undefined;
  const tag = value.trim().toLowerCase();
  if (tag.startsWith('zh')) return 'zh';
  if (tag.startsWith('en') || tag === 'c' || tag === 'posix' || tag.startsWith('c.')) return 'en';
  return undefined;
}

type Vars = Record<string, string | number>;
type Text = { en: (v: Vars) => string; zh: (v: Vars) => string };

/**
 * What the MCP server itself says (the API's own messages come in the asked language already).
 * Every entry exists in both languages; keys are stable, tests read them.
 */
const TEXTS = {
  // validation of tool arguments (JSON Schema keywords)
  required: { en: (v) => `${v.field} is required`, zh: (v) => `缺少 ${v.field}` },
  additionalProperties: {
    en: (v) => `${v.field} is not an argument of this tool${v.allowed ? ` (it takes: ${v.allowed})` : ''}`,
    zh: (v) => `${v.field} 不是此工具的参数${v.allowed ? `（可用：${v.allowed}）` : ''}`,
  },
  type: {
    en: (v) => `${v.field} must be of type ${v.limit}`,
    zh: (v) => `${v.field} 必须是 ${v.limit} 类型`,
  },
  minimum: {
    en: (v) => `${v.field} must be at least ${v.limit}`,
    zh: (v) => `${v.field} 不能小于 ${v.limit}`,
  },
  maximum: {
    en: (v) => `${v.field} must be at most ${v.limit}`,
    zh: (v) => `${v.field} 不能大于 ${v.limit}`,
  },
  minLength: {
    en: (v) => `${v.field} must have at least ${v.limit} character(s)`,
    zh: (v) => `${v.field} 至少需要 ${v.limit} 个字符`,
  },
  maxLength: {
    en: (v) => `${v.field} must have at most ${v.limit} characters`,
    zh: (v) => `${v.field} 不能超过 ${v.limit} 个字符`,
  },
  minItems: {
    en: (v) => `${v.field} needs at least ${v.limit} item(s)`,
    zh: (v) => `${v.field} 至少需要 ${v.limit} 项`,
  },
  maxItems: {
    en: (v) => `${v.field} takes at most ${v.limit} items`,
    zh: (v) => `${v.field} 最多 ${v.limit} 项`,
  },
  maxProperties: {
    en: (v) => `${v.field} takes at most ${v.limit} keys`,
    zh: (v) => `${v.field} 最多 ${v.limit} 个键`,
  },
  enum: {
    en: (v) => `${v.field} must be one of: ${v.limit}`,
    zh: (v) => `${v.field} 必须是以下之一：${v.limit}`,
  },
  pattern: {
    en: (v) =>
      v.field === 'prompt'
        ? 'prompt must not be empty or blank'
        : `${v.field} has a form this tool does not take`,
    zh: (v) => (v.field === 'prompt' ? 'prompt 不能为空' : `${v.field} 格式不正确`),
  },
  propertyNames: {
    en: (v) => `${v.field} has a key of the wrong length (keys are 1-64 characters)`,
    zh: (v) => `${v.field} 的键长度不正确（1-64 个字符）`,
  },
  oneOf: { en: (v) => `${v.field} has a form this tool does not take`, zh: (v) => `${v.field} 格式不正确` },
  invalid: { en: (v) => `${v.field} is not valid`, zh: (v) => `${v.field} 无效` },
  invalidArguments: {
    en: (v) => `[assetloom/mcp] ${v.tool}: ${v.problems}. Fix these arguments and call it again.`,
    zh: (v) => `[assetloom/mcp] ${v.tool}：${v.problems}。请修正这些参数后再调用。`,
  },
  // answers of the API
  apiRefused: {
    en: (v) => `[assetloom/mcp] The server refused ${v.what}: ${v.message}${v.fields}.`,
    zh: (v) => `[assetloom/mcp] 服务器拒绝了${v.what}：${v.message}${v.fields}。`,
  },
  idRefused: {
    en: (v) => `[assetloom/mcp] ${v.field}: ${v.message} (${v.code}); ${v.next}`,
    zh: (v) => `[assetloom/mcp] ${v.field}：${v.message}（${v.code}）；${v.next}`,
  },
  nextCharacter: {
    en: () => "list_characters lists a project's characters (yours only), create_character makes one.",
    zh: () => 'list_characters 列出工程的角色（仅你自己的），create_character 新建一个。',
  },
  nextTask: {
    en: () => "list_tasks lists a project's tasks (yours only).",
    zh: () => 'list_tasks 列出工程的任务（仅你自己的）。',
  },
  rigOnly: {
    en: () =>
      " The built-in generator's kept characters are people and humanoids: draw an animal or a thing with generate_animation (keep its seed for each action), or use a server with a model provider.",
    zh: () =>
      ' 内置生成器保存的角色只能是人或类人形象：动物或物体请用 generate_animation 绘制（每个动作保持同一 seed），或使用带模型服务的服务器。',
  },
  rateLimited: {
    en: (v) =>
      `[assetloom/mcp] The server is limiting requests (${v.message}): wait ${v.seconds} s, then call ${v.tool} again.`,
    zh: (v) => `[assetloom/mcp] 服务器限制了请求（${v.message}）：请等待 ${v.seconds} 秒后再调用 ${v.tool}。`,
  },
  notLoggedIn: {
    en: (v) =>
      `[assetloom/mcp] Not logged in to ${v.server}${v.detail}: set ASSETLOOM_TOKEN (or ASSETLOOM_USERNAME and ASSETLOOM_PASSWORD) in this MCP server's environment, or call the login tool.`,
    zh: (v) =>
      `[assetloom/mcp] 尚未登录 ${v.server}${v.detail}：请在此 MCP 服务器的环境中设置 ASSETLOOM_TOKEN（或 ASSETLOOM_USERNAME 与 ASSETLOOM_PASSWORD），或调用 login 工具。`,
  },
  unreachable: {
    en: (v) =>
      `[assetloom/mcp] Cannot reach the Assetloom server at ${v.server} (${v.message}): start one (npx assetloom-server) or point ASSETLOOM_SERVER at yours.`,
    zh: (v) =>
      `[assetloom/mcp] 无法连接 ${v.server} 上的 Assetloom 服务器（${v.message}）：请启动一个（npx assetloom-server），或把 ASSETLOOM_SERVER 指向你的服务器。`,
  },
  taskFailed: {
    en: (v) => `[assetloom/mcp] Task ${v.taskId} failed: ${v.reason}`,
    zh: (v) => `[assetloom/mcp] 任务 ${v.taskId} 失败：${v.reason}`,
  },
  cancelled: {
    en: (v) =>
      `[assetloom/mcp] ${v.tool} was cancelled; task ${v.taskId} goes on on the server (task_status follows it).`,
    zh: (v) =>
      `[assetloom/mcp] ${v.tool} 已取消；任务 ${v.taskId} 仍在服务器上运行（可用 task_status 查看）。`,
  },
  // files
  noFolders: {
    en: () =>
      '[assetloom/mcp] This MCP server may write no folder: start it with --allow <folder> (or ASSETLOOM_MCP_ALLOW) to let it write files there. The files stay readable as resources (the resource links of the result).',
    zh: () =>
      '[assetloom/mcp] 此 MCP 服务器不允许写入任何文件夹：请用 --allow <文件夹>（或 ASSETLOOM_MCP_ALLOW）启动它。文件仍可作为资源读取（结果中的资源链接）。',
  },
  outside: {
    en: (v) =>
      `[assetloom/mcp] ${v.field}: ${v.path} is outside the folders this MCP server may use (${v.allowed}). Pass a folder inside one of them, or a path relative to the first.`,
    zh: (v) =>
      `[assetloom/mcp] ${v.field}：${v.path} 不在此 MCP 服务器可使用的文件夹中（${v.allowed}）。请传入其中某个文件夹内的路径，或相对于第一个文件夹的路径。`,
  },
  symlinkOut: {
    en: (v) =>
      `[assetloom/mcp] ${v.field}: ${v.path} leads outside the allowed folders through a symbolic link (to ${v.target}); pass a folder that does not.`,
    zh: (v) =>
      `[assetloom/mcp] ${v.field}：${v.path} 通过符号链接指向允许的文件夹之外（${v.target}）；请换一个文件夹。`,
  },
  notAFolder: {
    en: (v) => `[assetloom/mcp] ${v.field}: ${v.path} exists and is not a folder.`,
    zh: (v) => `[assetloom/mcp] ${v.field}：${v.path} 已存在且不是文件夹。`,
  },
  fileExists: {
    en: (v) =>
      `[assetloom/mcp] ${v.field}: ${v.path} already exists; pass overwrite: true to replace it, or another folder.`,
    zh: (v) => `[assetloom/mcp] ${v.field}：${v.path} 已存在；传入 overwrite: true 以覆盖，或换一个文件夹。`,
  },
  noGodotProject: {
    en: (v) =>
      `[assetloom/mcp] ${v.field}: ${v.path} names a Godot path, but no allowed folder holds a project.godot; pass a folder path instead.`,
    zh: (v) =>
      `[assetloom/mcp] ${v.field}：${v.path} 是 Godot 路径，但允许的文件夹中没有 project.godot；请传入普通文件夹路径。`,
  },
  unreadable: {
    en: (v) => `[assetloom/mcp] ${v.field}: cannot read ${v.path} (${v.message}).`,
    zh: (v) => `[assetloom/mcp] ${v.field}：无法读取 ${v.path}（${v.message}）。`,
  },
  notCompleted: {
    en: (v) =>
      `[assetloom/mcp] Task ${v.taskId} is ${v.status}, not completed: wait_for_task waits for it, then download it.`,
    zh: (v) =>
      `[assetloom/mcp] 任务 ${v.taskId} 的状态是 ${v.status}，尚未完成：先用 wait_for_task 等待，再下载。`,
  },
  noProject: {
    en: (v) =>
      `[assetloom/mcp] projectId: you have no project named or numbered ${v.project}; list_projects lists yours, create_project makes one.`,
    zh: (v) =>
      `[assetloom/mcp] projectId：没有名为或编号为 ${v.project} 的工程；list_projects 列出你的工程，create_project 新建一个。`,
  },
  loginNeedsOne: {
    en: () => '[assetloom/mcp] login: pass token, or username and password.',
    zh: () => '[assetloom/mcp] login：请传入 token，或 username 与 password。',
  },
  loggedIn: {
    en: (v) =>
      `Logged in to ${v.server} as ${v.username}. The token is kept by this MCP server and never shown.`,
    zh: (v) => `已以 ${v.username} 登录 ${v.server}。令牌由此 MCP 服务器保存，不会显示。`,
  },
  imageTooLarge: {
    en: (v) => `(${v.file} is ${v.kb} KB, too large to show here: read its resource link.)`,
    zh: (v) => `（${v.file} 有 ${v.kb} KB，过大无法在此显示：请读取它的资源链接。）`,
  },
} satisfies Record<string, Text>;

export type TextKey = keyof typeof TEXTS;

export function say(language: Language, key: TextKey, vars: Vars = {}): string {
  return TEXTS[key][language](vars);
}
