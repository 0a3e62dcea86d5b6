import { type AssetApiSchemas, assetApiDocument, type JsonSchema } from '@assetloom/openapi';

/** The contract's types (openapi-typescript, generated once in @assetloom/openapi). */
export type AssetType = AssetApiSchemas['AssetType'];
type GenerateParams = AssetApiSchemas['GenerateParams'];
export type GenerateParamName = keyof GenerateParams & string;

const REF_PREFIX = '#/components/schemas/';
const inlined = new Map<string, JsonSchema>();

/**
 * A schema of the asset API contract (`components.schemas.<name>` of asset-api.yaml) with every
 * `$ref` written out in place: an MCP client reads a tool's input schema alone, without the document
 * its references point into. The result is frozen and shared (the validator compiles it once).
 */
export function contractSchema(name: string): JsonSchema {
  const done = inlined.get(name);
  if (done !== undefined) return done;
  const schema = assetApiDocument.components.schemas[name];
  if (schema === undefined) {
    throw new Error(`[assetloom/mcp] the asset API contract has no schema named ${name}`);
  }
  const out = deepFreeze(inline(schema, [name])) as JsonSchema;
  inlined.set(name, out);
  return out;
}

/** One property of a contract object schema, its `$ref`s written out. */
export function contractProperty(schemaName: string, property: string): JsonSchema {
  const properties = contractSchema(schemaName).properties as Record<string, JsonSchema> | undefined;
  const schema = properties?.[property];
  if (schema === undefined) {
    throw new Error(`[assetloom/mcp] the contract's ${schemaName} has no property ${property}`);
  }
  return schema;
}

function inline(value: unknown, trail: readonly string[]): unknown {
  if (Array.isArray(value)) return value.map((item) => inline(item, trail));
  if (value === null || typeof value !== 'object') return value;
  const record = value as Record<string, unknown>;
  const ref = record.$ref;
  if (typeof ref === 'string') {
    if (!ref.startsWith(REF_PREFIX)) throw new Error(`[assetloom/mcp] cannot inline the reference ${ref}`);
    const name = ref.slice(REF_PREFIX.length);
    if (trail.includes(name)) {
      throw new Error(
        `[assetloom/mcp] the contract's ${name} refers to itself (${[...trail, name].join(' → ')})`,
      );
    }
    const target = assetApiDocument.components.schemas[name];
    if (target === undefined) throw new Error(`[assetloom/mcp] the contract has no schema named ${name}`);
    // Siblings of $ref (a description beside it) win over the target's own.
    const { $ref: _ref, ...siblings } = record;
    return {
      ...(inline(target, [...trail, name]) as Record<string, unknown>),
      ...(inline(siblings, trail) as object),
    };
  }
  const out: Record<string, unknown> = {};
  for (const [key, item] of Object.entries(record)) out[key] = inline(item, trail);
  return out;
}

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === 'object' && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const item of Object.values(value as object)) deepFreeze(item);
  }
  return value;
}

/** The schema of a shared parameter of the contract (`components.parameters.<name>`), with its description. */
export function contractParameter(name: string): JsonSchema {
  const parameters = assetApiDocument.components.parameters as
    | Record<string, { description?: string; schema?: JsonSchema }>
    | undefined;
  const parameter = parameters?.[name];
  if (parameter?.schema === undefined) {
    throw new Error(`[assetloom/mcp] the asset API contract has no parameter named ${name}`);
  }
  const schema = inline(parameter.schema, []) as JsonSchema;
  return deepFreeze(
    parameter.description === undefined ? schema : { ...schema, description: parameter.description },
  );
}
