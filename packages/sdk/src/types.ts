import type {
  AssetApiComponents as AssetComponents,
  AssetApiPaths as AssetPaths,
  ReviewAuthComponents as ReviewComponents,
  ReviewAuthPaths as ReviewPaths,
} from '@assetloom/openapi';

type Schemas = AssetComponents['schemas'];

/**
 * The style keys the built-in generator reads (the contract's `StyleKey`). `palette`, `artStyle`,
 * `lineWeight`, `lighting` and `tileable` take the values `getStyleCatalog()` lists (another value is
 * refused: 400, rule `styleValue`, with `allowed`); `scene`, `subject`, `mood`, `theme` and `biome`
 * take any text.
 */
export type StyleKey = Schemas['StyleKey'];

/**
 * A style map (`style` of a project, `kvPairs`, `taskStyle` of a generation): the known keys
 * ({@link StyleKey}) are offered by autocompletion, and any other string key is allowed as the
 * contract says (1-64 characters, values ≤ 256 characters, at most 32 pairs).
 */
export type StyleMap = { [K in StyleKey]?: string } & { [key: string]: string };

/** The request-body fields that hold a style map. */
type StyleField = 'style' | 'kvPairs' | 'taskStyle';
/** `V` with the contract's plain `{[key: string]: string}` style map swapped for {@link StyleMap}. */
type Keyed<V> = V extends Schemas['StyleMap'] ? (Schemas['StyleMap'] extends V ? StyleMap : V) : V;
/** A JSON request body whose style fields take {@link StyleMap}. */
type KeyedBody<B> = B extends object ? { [K in keyof B]: K extends StyleField ? Keyed<B[K]> : B[K] } : B;
type KeyedRequestBody<R> = R extends { content: object }
  ? {
      [K in keyof R]: K extends 'content'
        ? { [T in keyof R[K]]: T extends 'application/json' ? KeyedBody<R[K][T]> : R[K][T] }
        : R[K];
    }
  : R;
type KeyedOperation<O> = O extends object
  ? { [K in keyof O]: K extends 'requestBody' ? KeyedRequestBody<O[K]> : O[K] }
  : O;

/**
 * Every path of the asset generation API (spec 000), as generated from openapi/asset-api.yaml, with
 * the style maps of request bodies typed as {@link StyleMap} (known keys autocomplete).
 */
export type AssetApiPaths = {
  [P in keyof AssetPaths]: { [M in keyof AssetPaths[P]]: KeyedOperation<AssetPaths[P][M]> };
};
/** Every path of the review-helper authentication (spec 001), as generated from openapi/review-auth.yaml. */
export type ReviewAuthPaths = ReviewPaths;

/** The numeric envelope error codes (equal to the HTTP status). */
export type EnvelopeErrorCode = Schemas['ErrorCode'];
/** The error envelope `{code, message, data}`: `data` is `{reason, errors?}` (null on the 401 未登录或 Token 已过期, and from older servers). */
export type ErrorEnvelope = Schemas['ErrorResponse'];

export type AssetType = Schemas['AssetType'];
export type TaskStatus = Schemas['TaskStatus'];
export type TaskStage = Schemas['TaskStage'];
export type Style = Schemas['Style'];
export type Task = Schemas['Task'];
export type TaskListItem = Schemas['TaskListItem'];
export type Project = Schemas['Project'];
export type ProjectDetail = Schemas['ProjectDetail'];
export type ProjectListItem = Schemas['ProjectListItem'];
export type Asset = Schemas['Asset'];
export type AssetMetadata = Schemas['AssetMetadata'];
export type PipelineProgress = Schemas['PipelineProgress'];
/** The body of `generate()`; `taskStyle` is a {@link StyleMap}. */
export type GenerateRequest = KeyedBody<Schemas['GenerateRequest']>;
/** `GET /api/v1/styles/catalog`: the named palettes, the art styles and every known style key. */
export type StyleCatalog = Schemas['StyleCatalog'];
/** `GET /api/v1/capabilities`: what the configured image provider honours and the limits to name. */
export type Capabilities = Schemas['Capabilities'];
/** A named palette of the catalogue: its `name` (the `palette` value), `colors` (`#rrggbb`) and `aliases`. */
export type NamedPalette = Schemas['NamedPalette'];
/** A known style key of the catalogue with its `values` (`null`: any text) and `description`. */
export type StyleKeyInfo = Schemas['StyleKeyInfo'];
/** A kept character (issue #40): its identity, its base view's task. */
export type Character = Schemas['Character'];
export type CharacterIdentity = Schemas['CharacterIdentity'];
export type CreateCharacterRequest = Schemas['CreateCharacterRequest'];
export type AnimateCharacterRequest = Schemas['AnimateCharacterRequest'];
export type RotateCharacterRequest = Schemas['RotateCharacterRequest'];
/** A page of a project's characters, newest first. */
export type CharacterList = Schemas['CharacterListResponse']['data'];
/** A page of tasks, newest first (a project's, or a character's: each names its `characterId`). */
export type TaskList = Schemas['TaskListResponse']['data'];
/** An uploaded picture (`POST /api/v1/uploads`). */
export type Upload = Schemas['Upload'];
/** `params.image`, `params.mask`, `params.references` and `params.paletteFrom` of a generation. */
export type ImageInput = Schemas['ImageInput'];
export type MaskInput = Schemas['MaskInput'];
export type ReferenceInput = Schemas['ReferenceInput'];
export type PaletteFrom = Schemas['PaletteFrom'];
export type LoginRequest = Schemas['LoginRequest'];
export type LoginData = Schemas['LoginResponse']['data'];
export type RegisterRequest = Schemas['RegisterRequest'];
export type ChangePasswordRequest = Schemas['ChangePasswordRequest'];
export type ChangePasswordData = Schemas['ChangePasswordResponse']['data'];

/** `{email, password}` of the review-helper endpoints. */
export type ReviewCredentials = ReviewComponents['schemas']['Credentials'];
/** The Chinese messages the review-helper endpoints answer in `{error}`. */
export type ReviewErrorMessage = ReviewComponents['schemas']['Error']['error'];
