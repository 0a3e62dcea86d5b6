import type {
  AssetApiComponents as AssetComponents,
  AssetApiPaths as AssetPaths,
  ReviewAuthComponents as ReviewComponents,
  ReviewAuthPaths as ReviewPaths,
} from '@assetloom/openapi';

/** Every path of the asset generation API (spec 000), as generated from openapi/asset-api.yaml. */
export type AssetApiPaths = AssetPaths;
/** Every path of the review-helper authentication (spec 001), as generated from openapi/review-auth.yaml. */
export type ReviewAuthPaths = ReviewPaths;

type Schemas = AssetComponents['schemas'];

/** The numeric envelope error codes (equal to the HTTP status). */
export type EnvelopeErrorCode = Schemas['ErrorCode'];
/** The error envelope `{code, message, data: null}`. */
export type ErrorEnvelope = Schemas['ErrorResponse'];

export type AssetType = Schemas['AssetType'];
export type TaskStatus = Schemas['TaskStatus'];
export type TaskStage = Schemas['TaskStage'];
export type StyleMap = Schemas['StyleMap'];
export type Style = Schemas['Style'];
export type Task = Schemas['Task'];
export type TaskListItem = Schemas['TaskListItem'];
export type Project = Schemas['Project'];
export type ProjectDetail = Schemas['ProjectDetail'];
export type ProjectListItem = Schemas['ProjectListItem'];
export type Asset = Schemas['Asset'];
export type AssetMetadata = Schemas['AssetMetadata'];
export type PipelineProgress = Schemas['PipelineProgress'];
export type GenerateRequest = Schemas['GenerateRequest'];
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
