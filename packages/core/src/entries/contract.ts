/**
 * `@assetloom/core/contract` — the asset API contract as the service speaks it: the request and
 * response shapes (aliases of the OpenAPI document's schemas, `…Input` and `…Result`), the style
 * catalogue (keys, values, palette aliases, GET /api/v1/styles/catalog) and the message catalogues
 * (error messages in both languages, field rules and their messages).
 *
 * The domain's main entities and enumerations (`Task`, `Project`, `AssetType`, `TaskStatus`, …) are
 * on the root entry, `@assetloom/core`; so are the error envelope and `MESSAGES`.
 *
 * @packageDocumentation
 */
export { MAX_FIELD_ERRORS, type MessageKey } from '../errors.js';
export {
  type AllowedValue,
  ASSET_API_ERRORS,
  DEFAULT_LANGUAGE,
  FIELD_RULES,
  type FieldError,
  type FieldLocation,
  type FieldProblem,
  fieldError,
  type Language,
  REVIEW_ERRORS,
  STYLE_KEY_TEXTS,
  type Texts,
} from '../messages.js';
export {
  CHOICE_KEYS,
  type ChoiceKey,
  isReadStyleValue,
  type NamedPalette,
  PALETTE_ALIASES,
  STYLE_KEYS,
  STYLE_VALUES,
  type StyleCatalog,
  type StyleKey,
  type StyleKeyInfo,
  styleCatalog,
  styleMapProblems,
  TEXT_KEYS,
} from '../styles.js';
export type {
  AnimationLoop,
  ChangePasswordInput,
  CreateProjectInput,
  DeleteProjectResult,
  Directions,
  GenerateInput,
  GenerateParamsInput,
  LoginInput,
  LoginResult,
  LoginUser,
  MeResult,
  OutputFormat,
  PageInput,
  ProjectDetail,
  ProjectList,
  ProjectListItem,
  PromptOptimizeInput,
  RegisterInput,
  RegisterResult,
  Style,
  StyleInput,
  StyleMap,
  SubmitResult,
  TaskList,
  TaskListItem,
  TokenResult,
  UpdateProjectInput,
} from '../types.js';
