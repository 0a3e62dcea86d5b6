import assetApi from '../generated/asset-api.json' with { type: 'json' };
import reviewAuth from '../generated/review-auth.json' with { type: 'json' };

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
