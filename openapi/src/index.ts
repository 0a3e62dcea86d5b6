import assetApi from '../generated/asset-api.json' with { type: 'json' };
import reviewAuth from '../generated/review-auth.json' with { type: 'json' };

/**
 * The TypeScript types of the documents, generated once by openapi-typescript (`pnpm gen`): core's
 * domain types and the SDK's types derive from these, and a type test in core fails when the two disagree.
 */
export type {
  components as AssetApiComponents,
  operations as AssetApiOperations,
  paths as AssetApiPaths,
} from '../generated/asset-api.js';
export type {
  components as ReviewAuthComponents,
  paths as ReviewAuthPaths,
} from '../generated/review-auth.js';
/** The schemas of the asset API (`components.schemas` of asset-api.yaml) by name. */
export type AssetApiSchemas = import('../generated/asset-api.js').components['schemas'];

/** A JSON Schema object as found in an OpenAPI 3.1 document. */
export type JsonSchema = { [key: string]: unknown };

/** The parts of an OpenAPI 3.1 document that Assetloom tooling reads. */
export interface OpenApiDocument {
  openapi: string;
  info: { title: string; version: string; [key: string]: unknown };
  paths: Record<string, Record<string, unknown>>;
  components: { schemas: Record<string, JsonSchema>; [key: string]: unknown };
  [key: string]: unknown;
}

/** OpenAPI 3.1 description of the asset generation API (spec 000), bundled from asset-api.yaml. */
export const assetApiDocument = assetApi as unknown as OpenApiDocument;

/** OpenAPI 3.1 description of the review-helper session authentication (spec 001). */
export const reviewAuthDocument = reviewAuth as unknown as OpenApiDocument;
